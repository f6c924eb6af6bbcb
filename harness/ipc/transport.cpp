#include "ipc/transport.hpp"

#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <array>
#include <cerrno>

namespace vmmcheck::ipc {
namespace {

constexpr std::size_t kMaxMessage = 64 * 1024;  // requests and replies are a few hundred bytes

[[noreturn]] void fail(const std::string& what, int error) { throw TransportError(what + ": " + errno_text(error)); }

}  // namespace

std::string errno_text(int error) {
  const char* name = strerrorname_np(error);
  return std::string(name ? name : "errno " + std::to_string(error)) + " (" + strerror(error) + ")";
}

std::pair<UniqueFd, UniqueFd> socket_pair() {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) fail("socketpair", errno);
  return {UniqueFd(sv[0]), UniqueFd(sv[1])};
}

void send_message(int socket, const std::string& text, int fd) {
  if (text.size() > kMaxMessage) throw TransportError("message of " + std::to_string(text.size()) + " bytes is too long");
  iovec iov{const_cast<char*>(text.data()), text.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
  if (fd >= 0) {
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  for (;;) {
    const ssize_t n = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n >= 0) return;
    if (errno == EINTR) continue;
    if (errno == EPIPE || errno == ECONNRESET) throw TransportError("the other process has gone (its socket is closed)");
    fail("sendmsg", errno);
  }
}

Message receive_message(int socket, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      throw TransportTimeout("no message within " + std::to_string(timeout.count() / 1000.0).substr(0, 5) + " s");
    pollfd p{socket, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) fail("poll", errno);
    if (ready > 0) break;
  }
  std::string text(kMaxMessage, '\0');
  iovec iov{text.data(), text.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
  msg.msg_control = control.data();
  msg.msg_controllen = control.size();
  ssize_t n;
  do n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n < 0) fail("recvmsg", errno);
  Message m;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int))) {
      int fd = -1;
      memcpy(&fd, CMSG_DATA(c), sizeof fd);
      m.fd.reset(fd);
    }
  }
  if (n == 0) throw TransportError("the other process has gone (its socket is closed)");
  if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) throw TransportError("a message was cut short");
  text.resize(static_cast<std::size_t>(n));
  m.text = std::move(text);
  return m;
}

std::string to_hex(const void* bytes, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (std::size_t i = 0; i < size; ++i) {
    const auto b = static_cast<const unsigned char*>(bytes)[i];
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

void from_hex(const std::string& text, void* bytes, std::size_t size) {
  auto digit = [&](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    throw TransportError("not a hex digit in a handle: '" + std::string(1, ch) + "'");
  };
  if (text.size() != 2 * size)
    throw TransportError("a handle of " + std::to_string(text.size() / 2) + " bytes where " + std::to_string(size) + " were expected");
  for (std::size_t i = 0; i < size; ++i)
    static_cast<unsigned char*>(bytes)[i] = static_cast<unsigned char>(digit(text[2 * i]) << 4 | digit(text[2 * i + 1]));
}

UniqueFd take_fd(pid_t pid, int fd) {
  const UniqueFd pidfd(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
  if (!pidfd.held()) fail("pidfd_open(" + std::to_string(pid) + ")", errno);
  UniqueFd copy(static_cast<int>(syscall(SYS_pidfd_getfd, pidfd.get(), fd, 0)));
  if (!copy.held()) fail("pidfd_getfd(pid " + std::to_string(pid) + ", fd " + std::to_string(fd) + ")", errno);
  return copy;
}

}  // namespace vmmcheck::ipc
