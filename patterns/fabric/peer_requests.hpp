#pragma once
// What fabric.handles.other_process asks the importing process (patterns/fabric/runner.cpp asks;
// patterns/fabric/peer_ops.cpp answers; listed in patterns/peer_registry.hpp). The wire format:
// run/kit/peer_protocol.hpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/unique_fd.hpp"
#include "run/kit/peer_protocol.hpp"
#include "run/kit/peer_state.hpp"

namespace vmmcheck::run::peer {

// Import a fabric handle (hex) and map it, granted to this device or not.
struct ImportFabric {
  static constexpr std::string_view kOp = "import_fabric";
  std::size_t size = 0;
  std::string handle;
  bool grant = true;
  static constexpr auto kFields = std::make_tuple(field("size", &ImportFabric::size), field("handle", &ImportFabric::handle),
                                                  field_or_default("grant", &ImportFabric::grant));
};
// Copy `words` words of `view` back and count those equal to `value`. Reply: {right: n} or {fault: e}.
struct Check {
  static constexpr std::string_view kOp = "check";
  int view = 0;
  std::uint64_t words = 0;
  std::uint32_t value = 0;
  static constexpr auto kFields =
      std::make_tuple(field("view", &Check::view), field("words", &Check::words), field("value", &Check::value));
};

}  // namespace vmmcheck::run::peer

namespace vmmcheck::run {
nlohmann::json handle(PeerState& s, const peer::ImportFabric& q, UniqueFd fd);
nlohmann::json handle(PeerState& s, const peer::Check& q, UniqueFd fd);
}  // namespace vmmcheck::run
