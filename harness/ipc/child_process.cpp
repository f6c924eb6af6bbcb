#include "ipc/child_process.hpp"

#include "common/unique_fd.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iostream>

extern char** environ;

namespace vmmcheck::ipc {
namespace {

constexpr std::size_t kLogTail = 8192;
constexpr std::size_t kMaxResult = 64u << 20;                 // a result is a few KiB; never hold more
constexpr auto kDrainAfterKill = std::chrono::seconds(5);     // pipes held open by a stray grandchild
constexpr auto kReapAfterKill = std::chrono::seconds(30);     // a process stuck in the driver

int result_fd = -1;  // the child side's choice (claim_result_fd)

// A pipe whose ends are close-on-exec and numbered above the descriptors the child gets (0-3), so the
// spawn's dup2 never meets an end already sitting on its target number.
bool make_pipe(UniqueFd& read_end, UniqueFd& write_end, std::string& error) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) {
    error = std::string("pipe2: ") + strerror(errno);
    return false;
  }
  read_end.reset(fcntl(p[0], F_DUPFD_CLOEXEC, 10));
  write_end.reset(fcntl(p[1], F_DUPFD_CLOEXEC, 10));
  ::close(p[0]);
  ::close(p[1]);
  if (!read_end.held() || !write_end.held()) {
    error = std::string("fcntl: ") + strerror(errno);
    return false;
  }
  return true;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

pid_t spawn_in_group(const std::vector<std::string>& argv, const std::vector<std::pair<int, int>>& fds, std::string& error) {
  if (argv.empty()) {
    error = "no command";
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  for (const auto& [from, to] : fds) posix_spawn_file_actions_adddup2(&actions, from, to);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group (a timeout kills all of it), no blocked signals, default signal actions.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  // An ignored SIGCHLD (inherited from some launchers) makes the kernel reap children at once, and
  // waitpid could not report how the child ended.
  struct sigaction current {};
  if (sigaction(SIGCHLD, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) signal(SIGCHLD, SIG_DFL);

  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (spawned != 0) {
    error = argv[0] + ": " + strerror(spawned);
    return -1;
  }
  return pid;
}

ChildRun run_child(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  ChildRun run;
  const auto start = std::chrono::steady_clock::now();
  UniqueFd result_r, result_w, log_r, log_w;
  if (argv.empty()) {
    run.error = "no command";
    return run;
  }
  if (!make_pipe(result_r, result_w, run.error) || !make_pipe(log_r, log_w, run.error)) return run;

  const pid_t pid = spawn_in_group(argv, {{log_w.get(), 1}, {log_w.get(), 2}, {result_w.get(), kResultFd}}, run.error);
  result_w.reset();
  log_w.reset();
  if (pid < 0) return run;

  // Drain both pipes until the child closes them, or until the deadline.
  const auto deadline = start + timeout;
  std::chrono::steady_clock::time_point killed_at{};
  bool killed = false;
  auto kill_group = [&] {
    kill(-pid, SIGKILL);
    killed = true;
    killed_at = std::chrono::steady_clock::now();
  };
  char buf[4096];
  while (result_r.held() || log_r.held()) {
    pollfd fds[2] = {{result_r.get(), POLLIN, 0}, {log_r.get(), POLLIN, 0}};
    const auto now = std::chrono::steady_clock::now();
    if (!killed && now >= deadline) kill_group();
    if (killed && now - killed_at >= kDrainAfterKill) break;
    // Never before the deadline: round the wait up.
    const long long left_ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    const int wait_ms = killed ? 200 : static_cast<int>(std::clamp<long long>(left_ms, 0, 1000));
    const int ready = poll(fds, 2, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      UniqueFd& fd = i == 0 ? result_r : log_r;
      const ssize_t n = read(fd.get(), buf, sizeof buf);
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        fd.reset();
        continue;
      }
      if (i == 0) {
        if (run.result.size() < kMaxResult) run.result.append(buf, static_cast<std::size_t>(n));
      } else {
        run.log_tail.append(buf, static_cast<std::size_t>(n));
        if (run.log_tail.size() > 2 * kLogTail) run.log_tail.erase(0, run.log_tail.size() - kLogTail);
      }
    }
  }
  // The pipes are closed: the child has exited or is about to. Reap it, still within the deadline,
  // and after a kill for a bounded time: a process stuck in the driver may never go.
  int status = 0;
  bool reaped = false;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      reaped = true;
      break;
    }
    if (done < 0 && errno != EINTR) {
      run.error = std::string("waitpid: ") + strerror(errno);
      break;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!killed && now >= deadline) kill_group();
    if (killed && now - killed_at >= kReapAfterKill) {
      run.unreaped = true;
      break;
    }
    usleep(1000);
  }
  if (run.log_tail.size() > kLogTail) run.log_tail.erase(0, run.log_tail.size() - kLogTail);
  run.seconds = seconds_since(start);
  // How it ended comes from the wait status: a child that exited on its own before the kill landed
  // exited, whatever the clock says.
  if (!reaped) {
    run.end = killed ? ChildRun::End::TimedOut : ChildRun::End::Exited;
    run.code = -1;
  } else if (WIFSIGNALED(status)) {
    run.code = WTERMSIG(status);
    run.end = killed && run.code == SIGKILL ? ChildRun::End::TimedOut : ChildRun::End::Signalled;
  } else {
    run.end = ChildRun::End::Exited;
    run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return run;
}

void claim_result_fd() {
  struct stat st {};
  if (fstat(kResultFd, &st) == 0 && S_ISFIFO(st.st_mode)) {
    result_fd = kResultFd;
    fcntl(kResultFd, F_SETFD, FD_CLOEXEC);  // not inherited by anything the case might start
  } else {
    result_fd = STDOUT_FILENO;
  }
}

void write_result(const std::string& text) {
  if (result_fd < 0) claim_result_fd();
  const int fd = result_fd;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace vmmcheck::ipc
