#include "run/execution/peer_server.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <type_traits>

#include "run/kit/peer_process.hpp"
#include "run/kit/peer_state.hpp"

namespace vmmcheck::run {
namespace {

using nlohmann::json;

// One request, decoded, to its handler: the session's state is made at the first request that needs the
// GPU (fd_identity does not). The reply's body; a failure is {"error": ...}.
json answer(const peer::Request& request, UniqueFd fd, int device, std::optional<PeerState>& state) {
  return std::visit(
      [&](const auto& q) -> json {
        using Q = std::decay_t<decltype(q)>;
        if constexpr (std::is_same_v<Q, peer::Exit> || std::is_same_v<Q, peer::Shutdown>) {
          return {};  // the session loop ends on these before answering
        } else if constexpr (std::is_same_v<Q, peer::FdIdentity>) {
          return handle(q, std::move(fd));
        } else {
          if (!state) state.emplace(device);
          return handle(*state, q, std::move(fd));
        }
      },
      request);
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
    json reply;
    try {
      const peer::Request request = peer::decode(PeerChannel::parse(m.text));
      if (std::holds_alternative<peer::Exit>(request)) return SessionEnd::Exit;
      if (std::holds_alternative<peer::Shutdown>(request)) return SessionEnd::Shutdown;
      reply = answer(request, std::move(m.fd), device, state);
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
