#pragma once
// Child processes: a command run with a hard timeout in a process group of its own, collecting what it
// writes on file descriptor 3 (its result) and the tail of its stdout/stderr (for the report when it
// dies) -- the isolation of cases (harness/run/execution/executor.hpp) and the self-test's passes; and
// a process started to talk over a socket (harness/run/kit/peer_process.hpp). No CUDA here: the parent
// of a crashing or hanging case only watches.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace vmmcheck::ipc {

struct ChildRun {
  enum class End { Exited, Signalled, TimedOut, NotStarted };
  End end = End::NotStarted;
  int code = 0;          // the exit status (Exited) or the signal (Signalled)
  std::string result;    // everything the child wrote to fd 3
  std::string log_tail;  // the last few KiB of its stdout and stderr
  double seconds = 0;
  std::string error;     // why it did not start (NotStarted), or why it could not be waited for
  bool unreaped = false; // still not gone 30 s after SIGKILL: stuck in the kernel (a wedged driver?)
};

// Starts argv[0] (a path) with argv, in its own process group, and waits at most `timeout` for it to
// exit. On the timeout the whole group gets SIGKILL. Never throws for what the child does. Sets SIGCHLD
// to its default action if it was ignored (children could not be waited for otherwise).
ChildRun run_child(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

// Starts argv[0] (a path) with argv in its own process group, stdin from /dev/null, each (from, to) of
// `fds` duplicated onto `to` in the child, default signal handling. The pid, or -1 with `error` set.
pid_t spawn_in_group(const std::vector<std::string>& argv, const std::vector<std::pair<int, int>>& fds, std::string& error);

// "SIGSEGV", "SIGKILL", ... or "signal N".
std::string signal_name(int signal);

// The child side. The result goes to fd 3 when the parent gave it a pipe there, else to stdout (a
// person running the child command by hand). claim_result_fd() decides, and must run before anything
// (CUDA) opens files and could take the free number 3; write_result() writes `text` in full.
constexpr int kResultFd = 3;
void claim_result_fd();
void write_result(const std::string& text);

}  // namespace vmmcheck::ipc
