#pragma once
// What ipc.* asks the importing process (patterns/ipc/runner.cpp asks; patterns/ipc/peer_ops.cpp answers;
// listed in patterns/peer_registry.hpp). The wire format: run/kit/peer_protocol.hpp.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/unique_fd.hpp"
#include "run/kit/peer_protocol.hpp"
#include "run/kit/peer_state.hpp"

namespace vmmcheck::run::peer {

// Import the exported allocation and map it twice: the POSIX fd attached (scm_rights), or copied out of
// process `pid`, where it is `fd` (pidfd_getfd).
struct Import {
  static constexpr std::string_view kOp = "import";
  std::size_t size = 0;
  patterns::Transport transport = patterns::Transport::ScmRights;
  std::optional<long long> pid;
  std::optional<int> fd;
  static constexpr auto kFields = std::make_tuple(field("size", &Import::size), field("transport", &Import::transport),
                                                  field("pid", &Import::pid), field("fd", &Import::fd));
  void validate() const {
    if (transport == patterns::Transport::PidfdGetfd && (!pid || !fd))
      throw ProtocolError("import: pidfd_getfd needs 'pid' and 'fd'");
  }
};
// Read `words` words through mapping `view` once, so caches hold them.
struct Prime {
  static constexpr std::string_view kOp = "prime";
  int view = 0;
  std::uint64_t words = 0;
  static constexpr auto kFields = std::make_tuple(field("view", &Prime::view), field("words", &Prime::words));
};
// Count new / old / other over `words` words through `view`, after the event when wait_event, raising
// the latch with `raise` just before. Reply: {bins: [...]}.
struct Read {
  static constexpr std::string_view kOp = "read";
  int view = 0;
  std::uint64_t words = 0;
  std::uint32_t new_value = 0, old_value = 0;
  bool wait_event = false;
  std::optional<std::uint32_t> raise;
  static constexpr auto kFields =
      std::make_tuple(field("view", &Read::view), field("words", &Read::words), field("new", &Read::new_value),
                      field("old", &Read::old_value), field_or_default("wait_event", &Read::wait_event),
                      field("raise", &Read::raise));
};

}  // namespace vmmcheck::run::peer

namespace vmmcheck::run {
nlohmann::json handle(PeerState& s, const peer::Import& q, UniqueFd fd);
nlohmann::json handle(PeerState& s, const peer::Prime& q, UniqueFd fd);
nlohmann::json handle(PeerState& s, const peer::Read& q, UniqueFd fd);
}  // namespace vmmcheck::run
