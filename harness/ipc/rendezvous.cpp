#include "ipc/rendezvous.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "ipc/transport.hpp"

namespace vmmcheck::ipc {
namespace {

// The abstract address: a leading NUL, then the name (not NUL-terminated; the length says where it ends).
socklen_t address_of(const std::string& name, sockaddr_un& a) {
  const std::string path = "vmmcheck-" + name;
  if (path.size() + 1 > sizeof a.sun_path) throw TransportError("rendezvous name too long: " + name);
  a = {};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path + 1, path.data(), path.size());
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + path.size());
}

UniqueFd new_socket() {
  UniqueFd s(::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0));
  if (!s.held()) throw TransportError("socket: " + errno_text(errno));
  return s;
}

}  // namespace

UniqueFd listen_at(const std::string& name) {
  sockaddr_un a;
  const socklen_t len = address_of(name, a);
  UniqueFd s = new_socket();
  if (::bind(s.get(), reinterpret_cast<sockaddr*>(&a), len) != 0)
    throw TransportError("bind to @vmmcheck-" + name + ": " + errno_text(errno));
  if (::listen(s.get(), 8) != 0) throw TransportError("listen: " + errno_text(errno));
  return s;
}

UniqueFd accept_one(int listener, std::chrono::milliseconds timeout) {
  pollfd p{listener, POLLIN, 0};
  int ready;
  do ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
  while (ready < 0 && errno == EINTR);
  if (ready < 0) throw TransportError("poll: " + errno_text(errno));
  if (ready == 0) throw TransportTimeout("nobody connected within " + std::to_string(timeout.count() / 1000.0) + " s");
  UniqueFd c(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
  if (!c.held()) throw TransportError("accept: " + errno_text(errno));
  return c;
}

UniqueFd connect_to(const std::string& name, std::chrono::milliseconds timeout) {
  sockaddr_un a;
  const socklen_t len = address_of(name, a);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    UniqueFd s = new_socket();
    if (::connect(s.get(), reinterpret_cast<sockaddr*>(&a), len) == 0) return s;
    const int error = errno;
    // Not listening yet (ECONNREFUSED for an abstract name nobody bound): try again shortly.
    if (error != ECONNREFUSED && error != ENOENT && error != EAGAIN)
      throw TransportError("connect to @vmmcheck-" + name + ": " + errno_text(error));
    if (std::chrono::steady_clock::now() >= deadline)
      throw TransportTimeout("nobody listens at @vmmcheck-" + name + " (" + errno_text(error) + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace vmmcheck::ipc
