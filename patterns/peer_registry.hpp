#pragma once
// The requests one vmmcheck process can ask another (`vmmcheck ipc-peer`, or an MPI rank's session),
// listed the way patterns/registry.hpp lists the patterns. Each type lives with what asks it and declares
// its handler beside it; the server (run/execution/peer_server.cpp) decodes a message by its "op" into the
// type listed here that names it, and calls that type's handler. Adding a request: its type and handler
// beside their pattern (docs/adding-a-pattern.md), and its type here.
#include <string_view>
#include <tuple>

#include "bench/peer_requests.hpp"
#include "patterns/fabric/peer_requests.hpp"
#include "patterns/ipc/peer_requests.hpp"
#include "patterns/multicast/peer_requests.hpp"
#include "run/kit/fd_transports.hpp"
#include "run/kit/peer_work.hpp"

namespace vmmcheck::run::peer {

using Requests = std::tuple<OpenEvent, AttachLatch, FdIdentity,   // the kit's, shared by ipc and multicast, and the fd probe's
                            Import, Prime, Read,                  // ipc
                            ImportFabric, Check,                  // fabric
                            McJoin, McFill, McSecond,             // multicast
                            BenchImport>;                         // vmmcheck bench

// No two requests, nor a request and the session's own messages, share an operation name.
template <typename... Q>
constexpr bool names_unique(std::tuple<Q...>*) {
  constexpr std::string_view names[] = {Q::kOp..., Exit::kOp, Shutdown::kOp};
  for (std::size_t i = 0; i < std::size(names); ++i)
    for (std::size_t j = i + 1; j < std::size(names); ++j)
      if (names[i] == names[j]) return false;
  return true;
}
static_assert(names_unique(static_cast<Requests*>(nullptr)), "two request types name one operation");

}  // namespace vmmcheck::run::peer
