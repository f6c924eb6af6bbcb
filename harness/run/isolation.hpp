#pragma once
// Runs a command in a child process with a hard timeout, collecting what it writes on file descriptor 3
// (its result) and the tail of its stdout/stderr (for the report when it dies). No CUDA here: the
// parent of a crashing or hanging case only watches.
#include <chrono>
#include <string>
#include <vector>

namespace vmmcheck::run {

struct ChildRun {
  enum class End { Exited, Signalled, TimedOut, NotStarted };
  End end = End::NotStarted;
  int code = 0;          // the exit status (Exited) or the signal (Signalled)
  std::string result;    // everything the child wrote to fd 3
  std::string log_tail;  // the last few KiB of its stdout and stderr
  double seconds = 0;
  std::string error;     // why it did not start (NotStarted)
};

// Starts argv[0] (a path) with argv, in its own process group, and waits at most `timeout` for it to
// exit. On the timeout the whole group gets SIGKILL. Never throws for what the child does.
ChildRun run_child(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

// "SIGSEGV", "SIGKILL", ... or "signal N".
std::string signal_name(int signal);

// The file descriptor a child writes its result to, and a helper for the child side: writes `text`
// there in full (to stdout when fd 3 is not open, so a person can run the child command by hand).
constexpr int kResultFd = 3;
void write_result(const std::string& text);

}  // namespace vmmcheck::run
