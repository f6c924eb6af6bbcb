#include "run/execution/peer_server.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "patterns/peer_registry.hpp"
#include "run/kit/peer_process.hpp"
#include "run/kit/peer_state.hpp"

namespace vmmcheck::run {
namespace {

// A request or an answer on the wire (plain JSON: the peers read it by key).
using WireJson = nlohmann::json;

// Whether a request's handler takes no session state (it needs no GPU: fd_identity).
template <typename Q, typename = void>
struct Stateless : std::false_type {};
template <typename Q>
struct Stateless<Q, std::void_t<decltype(handle(std::declval<const Q&>(), std::declval<UniqueFd>()))>> : std::true_type {};

template <typename Q>
WireJson answer_as(const WireJson& message, UniqueFd fd, int device, std::optional<PeerState>& state) {
  const Q q = peer::decode<Q>(message);
  if constexpr (Stateless<Q>::value) {
    return handle(q, std::move(fd));
  } else {
    if (!state) state.emplace(device);  // made at the first request that needs the GPU
    return handle(*state, q, std::move(fd));
  }
}

// One request to the handler of the type that names its operation (patterns/peer_registry.hpp). The
// reply's body; a failure is {"error": ...}.
WireJson answer(const std::string& op, const WireJson& message, UniqueFd fd, int device, std::optional<PeerState>& state) {
  std::optional<WireJson> reply;
  std::apply(
      [&](auto... request) {
        ((!reply && decltype(request)::kOp == op ? (reply = answer_as<decltype(request)>(message, std::move(fd), device, state), true)
                                                 : false) ||
         ...);
      },
      peer::Requests{});
  if (!reply) throw peer::ProtocolError("unknown request '" + op + "'");
  return *reply;
}

}  // namespace

SessionEnd serve_session(int socket, int device) {
  PeerChannel channel(socket);
  std::optional<PeerState> state;
  for (;;) {
    PeerChannel::Message m;
    try {
      m = channel.next();
    } catch (const std::exception&) {
      return SessionEnd::Gone;  // the other side has gone: the session is over
    }
    WireJson reply;
    try {
      const WireJson message = PeerChannel::parse(m.text);
      const std::string op = peer::op_of(message);
      if (op == peer::Exit::kOp) return SessionEnd::Exit;
      if (op == peer::Shutdown::kOp) return SessionEnd::Shutdown;
      reply = answer(op, message, std::move(m.fd), device, state);
    } catch (const peer::ProtocolError& e) {
      reply = {{"error", std::string("malformed request: ") + e.what()}};
    } catch (const peer::Unavailable& e) {
      reply = {{"error", e.what()}, {"not_supported", true}};
    } catch (const std::exception& e) {
      reply = {{"error", e.what()}};
    }
    try {
      channel.reply(reply);
    } catch (const std::exception&) {
      return SessionEnd::Gone;
    }
  }
  // The state unmaps and releases as the session ends: what a well-behaved importer does.
}

void run_ipc_peer(int device) {
  // Never outlives the case that started it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (!PeerChannel::is_socket(PeerProcess::kSocketFd)) {
    std::fprintf(stderr, "vmmcheck: ipc-peer: descriptor 3 is not a socket (this command is started by vmmcheck itself)\n");
    std::_Exit(2);
  }
  fcntl(PeerProcess::kSocketFd, F_SETFD, FD_CLOEXEC);
  serve_session(PeerProcess::kSocketFd, device);
  std::exit(0);
}

}  // namespace vmmcheck::run
