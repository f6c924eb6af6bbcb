#pragma once
// How two vmmcheck processes talk and hand each other file descriptors (the ipc.* cases: an exported
// VMM allocation is a POSIX file descriptor, docs/design.md, "Processes"). A connected pair of
// SOCK_SEQPACKET Unix sockets carries one message per send: JSON text, with at most one descriptor
// attached as SCM_RIGHTS. pidfd_getfd is the other way to move a descriptor: the receiver copies it
// out of the sender's table, which needs ptrace rights over the sender and is refused in many containers.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/unique_fd.hpp"

namespace vmmcheck::ipc {

// The other process is gone, sent something unreadable, or a socket call failed.
class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Nothing arrived in time.
class TransportTimeout : public TransportError {
 public:
  using TransportError::TransportError;
};

struct Message {
  std::string text;
  UniqueFd fd;  // the descriptor that came with it, if any
};

// A connected pair, close-on-exec (a child gets its end by an explicit dup2).
std::pair<UniqueFd, UniqueFd> socket_pair();

// One message; `fd` >= 0 is attached (SCM_RIGHTS: the receiver gets its own descriptor for the same file).
void send_message(int socket, const std::string& text, int fd = -1);
// The next message, waiting at most `timeout`. Throws TransportTimeout, or TransportError when the
// other end closed or the message was cut short.
Message receive_message(int socket, std::chrono::milliseconds timeout);

// pidfd_open + pidfd_getfd: this process's own copy of descriptor `fd` of process `pid`. Throws
// TransportError naming the call and errno (EPERM: no ptrace rights; ENOSYS: kernel before 5.6).
UniqueFd take_fd(pid_t pid, int fd);

// Opaque handles (an interprocess event, a fabric handle) as text for a message, and back. from_hex
// throws TransportError unless `text` is exactly `size` bytes of hex.
std::string to_hex(const void* bytes, std::size_t size);
void from_hex(const std::string& text, void* bytes, std::size_t size);

// "EPERM (Operation not permitted)".
std::string errno_text(int error);

}  // namespace vmmcheck::ipc
