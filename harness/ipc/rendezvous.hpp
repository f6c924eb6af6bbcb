#pragma once
// Processes that did not start each other (MPI ranks of one node) meet at a named Unix socket in the
// abstract namespace ("\0vmmcheck-<name>": nothing in the file system to clean up, gone with the
// listener). The connection is SOCK_SEQPACKET, as socket_pair()'s, so transport.hpp's messages and
// SCM_RIGHTS descriptors work over it unchanged. Abstract names are per network namespace: two
// containers with their own do not meet (fabric handles, plain bytes, do not need this).
#include <chrono>
#include <string>

#include "common/unique_fd.hpp"

namespace vmmcheck::ipc {

// A listening socket named `name`. Throws TransportError (EADDRINUSE: someone listens there already).
UniqueFd listen_at(const std::string& name);
// The next connection to `listener`; TransportTimeout after `timeout`.
UniqueFd accept_one(int listener, std::chrono::milliseconds timeout);
// A connection to `name`, retried until the listener exists or `timeout` passed (TransportTimeout).
UniqueFd connect_to(const std::string& name, std::chrono::milliseconds timeout);

}  // namespace vmmcheck::ipc
