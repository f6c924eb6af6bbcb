#include "run/kit/peer_protocol.hpp"

namespace vmmcheck::run::peer {

std::string op_of(const nlohmann::json& message) {
  if (!message.is_object()) throw ProtocolError("a request must be a JSON object, not " + message.dump());
  if (!message.contains("op") || !message.at("op").is_string()) throw ProtocolError("a request names no 'op'");
  return message.at("op").get<std::string>();
}

}  // namespace vmmcheck::run::peer
