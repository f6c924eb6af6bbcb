#pragma once
// A POSIX file descriptor closed when its owner goes: pipes, sockets, exported VMM handles.
#include <unistd.h>

#include <utility>

namespace vmmcheck {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const noexcept { return fd_; }
  bool held() const noexcept { return fd_ >= 0; }
  // Gives the descriptor up without closing it: someone else owns it now (a successful import).
  int release() noexcept { return std::exchange(fd_, -1); }
  // Closes now (a close error leaves nothing to retry: the number is gone either way).
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace vmmcheck
