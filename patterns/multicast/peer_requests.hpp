#pragma once
// What multicast.processes asks the second process (patterns/multicast/runner.cpp asks;
// patterns/multicast/peer_ops.cpp answers, behind the multicast gate; listed in patterns/peer_registry.hpp).
// The wire format: run/kit/peer_protocol.hpp.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/unique_fd.hpp"
#include "run/kit/peer_protocol.hpp"
#include "run/kit/peer_state.hpp"

namespace vmmcheck::run::peer {

// Join the multicast team whose object is attached (asking the gate again there).
struct McJoin {
  static constexpr std::string_view kOp = "mc_join";
  std::size_t size = 0;
  static constexpr auto kFields = std::make_tuple(field("size", &McJoin::size));
};
// Fill this process's memory of the team.
struct McFill {
  static constexpr std::string_view kOp = "mc_fill";
  std::uint64_t words = 0;
  std::uint32_t value = 0;
  static constexpr auto kFields = std::make_tuple(field("words", &McFill::words), field("value", &McFill::value));
};
// The second access of a two-process multicast case. Reply: {bins: [...]}.
struct McSecond {
  static constexpr std::string_view kOp = "mc_second";
  std::uint64_t words = 0;
  patterns::MulticastOp op = patterns::MulticastOp::Store;
  std::uint32_t value = 0;
  bool wait_event = false;
  std::optional<std::uint32_t> raise;
  static constexpr auto kFields =
      std::make_tuple(field("words", &McSecond::words), field("multimem_op", &McSecond::op), field("value", &McSecond::value),
                      field_or_default("wait_event", &McSecond::wait_event), field("raise", &McSecond::raise));
};

}  // namespace vmmcheck::run::peer

namespace vmmcheck::run {
nlohmann::json handle(PeerState& s, const peer::McJoin& q, UniqueFd fd);
nlohmann::json handle(PeerState& s, const peer::McFill& q, UniqueFd fd);
nlohmann::json handle(PeerState& s, const peer::McSecond& q, UniqueFd fd);
}  // namespace vmmcheck::run
