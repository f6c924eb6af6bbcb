#include "run/kit/peer_protocol.hpp"

#include <array>
#include <limits>
#include <type_traits>

namespace vmmcheck::run::peer {
namespace {

using nlohmann::json;

// The wire name of each request type, in the variant's order.
constexpr std::array<std::string_view, std::variant_size_v<Request>> kNames{
    "import", "import_fabric", "event", "latch", "prime", "read", "check", "mc_join", "mc_fill", "mc_second",
    "fd_identity", "bench_import", "exit", "shutdown"};

// Reads one field of a message, saying which operation and field when it is missing or of another type.
class Fields {
 public:
  Fields(const json& m, std::string_view op) : m_(m), op_(op) {}

  template <typename T>
  T get(const char* key) const {
    if (!m_.contains(key)) throw ProtocolError(std::string(op_) + ": missing '" + key + "'");
    return as<T>(key, m_.at(key));
  }
  template <typename T>
  T get_or(const char* key, T fallback) const {
    return m_.contains(key) ? as<T>(key, m_.at(key)) : fallback;
  }
  template <typename T>
  std::optional<T> optional(const char* key) const {
    if (!m_.contains(key) || m_.at(key).is_null()) return std::nullopt;
    return as<T>(key, m_.at(key));
  }
  template <typename E>
  E token(const char* key) const {
    const std::string text = get<std::string>(key);
    if (const auto value = patterns::from_token<E>(text)) return *value;
    throw ProtocolError(std::string(op_) + ": '" + key + "' has no value '" + text + "'");
  }

 private:
  template <typename T>
  T as(const char* key, const json& v) const {
    const auto wrong = [&](const char* what) {
      return ProtocolError(std::string(op_) + ": '" + key + "' " + what + " (" + v.dump() + ")");
    };
    if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) throw wrong("must be true or false");
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
      if (!v.is_number_unsigned()) throw wrong("must be a non-negative integer");
      if (v.get<std::uint64_t>() > std::numeric_limits<T>::max()) throw wrong("is too large");
    } else if constexpr (std::is_integral_v<T>) {
      if (!v.is_number_integer()) throw wrong("must be an integer");
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!v.is_number()) throw wrong("must be a number");
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!v.is_string()) throw wrong("must be a string");
    }
    return v.get<T>();
  }

  const json& m_;
  std::string_view op_;
};

void put(json& m, const Import& q) {
  m["size"] = q.size;
  m["transport"] = patterns::token(q.transport);
  if (q.transport == patterns::Transport::PidfdGetfd) {
    m["pid"] = q.pid;
    m["fd"] = q.fd;
  }
}
void put(json& m, const ImportFabric& q) {
  m["size"] = q.size;
  m["handle"] = q.handle;
  m["grant"] = q.grant;
}
void put(json& m, const OpenEvent& q) { m["handle"] = q.handle; }
void put(json&, const AttachLatch&) {}
void put(json& m, const Prime& q) {
  m["view"] = q.view;
  m["words"] = q.words;
}
void put(json& m, const Read& q) {
  m["view"] = q.view;
  m["words"] = q.words;
  m["new"] = q.new_value;
  m["old"] = q.old_value;
  m["wait_event"] = q.wait_event;
  if (q.raise) m["raise"] = *q.raise;
}
void put(json& m, const Check& q) {
  m["view"] = q.view;
  m["words"] = q.words;
  m["value"] = q.value;
}
void put(json& m, const McJoin& q) { m["size"] = q.size; }
void put(json& m, const McFill& q) {
  m["words"] = q.words;
  m["value"] = q.value;
}
void put(json& m, const McSecond& q) {
  m["words"] = q.words;
  m["multimem_op"] = patterns::token(q.op);
  m["value"] = q.value;
  m["wait_event"] = q.wait_event;
  if (q.raise) m["raise"] = *q.raise;
}
void put(json& m, const FdIdentity& q) {
  if (q.pid) {
    m["pid"] = *q.pid;
    m["fd"] = q.fd;
  }
}
void put(json& m, const BenchImport& q) {
  m["size"] = q.size;
  m["warmup"] = q.warmup;
  m["min_samples"] = q.min_samples;
  m["max_samples"] = q.max_samples;
  m["seconds"] = q.seconds;
}
void put(json&, const Exit&) {}
void put(json&, const Shutdown&) {}

template <typename T>
T take(const Fields& f);
template <>
Import take(const Fields& f) {
  Import q;
  q.size = f.get<std::size_t>("size");
  q.transport = f.token<patterns::Transport>("transport");
  if (q.transport == patterns::Transport::PidfdGetfd) {
    q.pid = f.get<long long>("pid");
    q.fd = f.get<int>("fd");
  }
  return q;
}
template <>
ImportFabric take(const Fields& f) {
  return {f.get<std::size_t>("size"), f.get<std::string>("handle"), f.get_or<bool>("grant", true)};
}
template <>
OpenEvent take(const Fields& f) {
  return {f.get<std::string>("handle")};
}
template <>
AttachLatch take(const Fields&) {
  return {};
}
template <>
Prime take(const Fields& f) {
  return {f.get<int>("view"), f.get<std::uint64_t>("words")};
}
template <>
Read take(const Fields& f) {
  return {f.get<int>("view"),       f.get<std::uint64_t>("words"),       f.get<std::uint32_t>("new"),
          f.get<std::uint32_t>("old"), f.get_or<bool>("wait_event", false), f.optional<std::uint32_t>("raise")};
}
template <>
Check take(const Fields& f) {
  return {f.get<int>("view"), f.get<std::uint64_t>("words"), f.get<std::uint32_t>("value")};
}
template <>
McJoin take(const Fields& f) {
  return {f.get<std::size_t>("size")};
}
template <>
McFill take(const Fields& f) {
  return {f.get<std::uint64_t>("words"), f.get<std::uint32_t>("value")};
}
template <>
McSecond take(const Fields& f) {
  return {f.get<std::uint64_t>("words"), f.token<patterns::MulticastOp>("multimem_op"), f.get<std::uint32_t>("value"),
          f.get_or<bool>("wait_event", false), f.optional<std::uint32_t>("raise")};
}
template <>
FdIdentity take(const Fields& f) {
  FdIdentity q;
  q.pid = f.optional<long long>("pid");
  if (q.pid) q.fd = f.get<int>("fd");
  return q;
}
template <>
BenchImport take(const Fields& f) {
  return {f.get<std::size_t>("size"), f.get<unsigned>("warmup"), f.get<unsigned>("min_samples"),
          f.get<unsigned>("max_samples"), f.get<double>("seconds")};
}
template <>
Exit take(const Fields&) {
  return {};
}
template <>
Shutdown take(const Fields&) {
  return {};
}

template <std::size_t... I>
Request decode_as(std::size_t index, const Fields& f, std::index_sequence<I...>) {
  Request out;
  ((index == I ? (out = take<std::variant_alternative_t<I, Request>>(f), true) : false) || ...);
  return out;
}

}  // namespace

std::string_view name_of(const Request& r) { return kNames[r.index()]; }

nlohmann::json encode(const Request& r) {
  json m{{"op", std::string(name_of(r))}};
  std::visit([&](const auto& q) { put(m, q); }, r);
  return m;
}

Request decode(const nlohmann::json& message) {
  if (!message.is_object()) throw ProtocolError("a request must be a JSON object, not " + message.dump());
  if (!message.contains("op") || !message.at("op").is_string()) throw ProtocolError("a request names no 'op'");
  const std::string op = message.at("op").get<std::string>();
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == op)
      return decode_as(i, Fields(message, kNames[i]), std::make_index_sequence<std::variant_size_v<Request>>{});
  throw ProtocolError("unknown request '" + op + "'");
}

}  // namespace vmmcheck::run::peer
