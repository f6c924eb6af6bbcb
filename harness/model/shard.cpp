#include "model/shard.hpp"

#include <cctype>

#include "common/error.hpp"

namespace vmmcheck::model {
namespace {

// A positive decimal count, digits only (no sign, no spaces: "-1" and "+1" are not counts).
bool parse_count(const std::string& text, std::uint32_t& out) {
  if (text.empty() || text.size() > 9) return false;
  for (const char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  out = static_cast<std::uint32_t>(std::stoul(text));
  return out >= 1;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  const bool ok = slash != std::string::npos && parse_count(text.substr(0, slash), s.index) &&
                  parse_count(text.substr(slash + 1), s.count);
  if (!ok) throw InputError("--shard '" + text + "': expected K/N with whole numbers 1 <= K <= N, e.g. 2/3");
  if (s.index > s.count) throw InputError("--shard " + text + ": shard " + std::to_string(s.index) + " of " +
                                          std::to_string(s.count) + " does not exist (K is 1 to N)");
  return s;
}

std::string to_string(const Shard& s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

std::uint64_t fnv1a_64(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::uint32_t shard_of(std::string_view name, std::uint32_t count) {
  return static_cast<std::uint32_t>(fnv1a_64(name) % count) + 1;
}

}  // namespace vmmcheck::model
