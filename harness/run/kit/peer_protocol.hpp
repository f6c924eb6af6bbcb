#pragma once
// The wire format of the requests a case's first process sends the second (`vmmcheck ipc-peer`, or an MPI
// rank serving import sessions). This codec and the session's own two messages are the protocol's part
// of the kit; every request type lives with what sends it -- its pattern's peer_requests.hpp, bench's,
// the kit's own event, latch and fd-probe requests (run/kit/peer_work.hpp, run/kit/fd_transports.hpp) --
// with its handler, and patterns/peer_registry.hpp lists them all. A request type names its operation and each of its fields once:
//
//   struct Prime {
//     static constexpr std::string_view kOp = "prime";
//     int view = 0;
//     std::uint64_t words = 0;
//     static constexpr auto kFields = std::make_tuple(field("view", &Prime::view), field("words", &Prime::words));
//   };
//
// It travels as one JSON message {"op": kOp, name: value...}, a file descriptor attached where the type says
// so, and gets one reply, its body, or {"error": "..."} ({"not_supported": true} as well where the
// environment lacks what was asked). A malformed request is an error on both sides: decode() says which
// operation and which field, the server replies with that, the client raises it -- never a hang.
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "vocabulary/axes.hpp"

namespace vmmcheck::run::peer {

// A request that is not one: unknown operation, a missing field, a value of the wrong type.
struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The environment lacks what a request needs: the first process makes its case NotSupported.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One field of request type Q: its name on the wire and its member. A std::optional member may be left
// out (or null) and is written only when set; a `required` one must be there; another takes Q's default.
template <typename Q, typename T>
struct Field {
  const char* name;
  T Q::*member;
  bool required;
};
template <typename Q, typename T>
constexpr Field<Q, T> field(const char* name, T Q::*member) {
  return {name, member, true};
}
template <typename Q, typename T>
constexpr Field<Q, T> field_or_default(const char* name, T Q::*member) {
  return {name, member, false};
}

namespace detail {

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

// A value as the wire spells it: enumerations by their token (vocabulary/axes.hpp).
template <typename T>
nlohmann::json to_wire(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return std::string(patterns::token(v));
  } else {
    return v;
  }
}

template <typename T>
T from_wire(const nlohmann::json& v, std::string_view op, const char* key) {
  const auto wrong = [&](const char* what) {
    return ProtocolError(std::string(op) + ": '" + key + "' " + what + " (" + v.dump() + ")");
  };
  if constexpr (std::is_enum_v<T>) {
    if (!v.is_string()) throw wrong("must be a string");
    const std::string text = v.get<std::string>();
    if (const auto value = patterns::from_token<T>(text)) return *value;
    throw ProtocolError(std::string(op) + ": '" + key + "' has no value '" + text + "'");
  } else {
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
}

template <typename Q, typename T>
void put(nlohmann::json& m, const Q& q, const Field<Q, T>& f) {
  const T& v = q.*f.member;
  if constexpr (IsOptional<T>::value) {
    if (v) m[f.name] = to_wire(*v);
  } else {
    m[f.name] = to_wire(v);
  }
}

template <typename Q, typename T>
void take(const nlohmann::json& m, Q& q, const Field<Q, T>& f) {
  const bool present = m.contains(f.name) && !m.at(f.name).is_null();
  if constexpr (IsOptional<T>::value) {
    if (present) q.*f.member = from_wire<typename T::value_type>(m.at(f.name), Q::kOp, f.name);
  } else {
    if (present) {
      q.*f.member = from_wire<T>(m.at(f.name), Q::kOp, f.name);
    } else if (f.required) {
      throw ProtocolError(std::string(Q::kOp) + ": missing '" + f.name + "'");
    }
  }
}

}  // namespace detail

template <typename Q>
nlohmann::json encode(const Q& q) {
  nlohmann::json m{{"op", std::string(Q::kOp)}};
  std::apply([&](const auto&... f) { (detail::put(m, q, f), ...); }, Q::kFields);
  return m;
}

namespace detail {
template <typename Q, typename = void>
struct HasValidate : std::false_type {};
template <typename Q>
struct HasValidate<Q, std::void_t<decltype(std::declval<const Q&>().validate())>> : std::true_type {};
}  // namespace detail

// A message already known to name Q::kOp (op_of) read as a Q; throws ProtocolError. A type whose fields
// depend on each other says so in `void validate() const` (throwing ProtocolError), run here, so a
// malformed request is refused before its handler -- or the GPU -- is reached.
template <typename Q>
Q decode(const nlohmann::json& message) {
  Q q{};
  std::apply([&](const auto&... f) { (detail::take(message, q, f), ...); }, Q::kFields);
  if constexpr (detail::HasValidate<Q>::value) q.validate();
  return q;
}

// The operation a message names; throws ProtocolError when it is not a JSON object naming one.
std::string op_of(const nlohmann::json& message);

// The session's own messages: end this session; end an MPI rank's server (run/execution/peer_server.hpp).
struct Exit {
  static constexpr std::string_view kOp = "exit";
  static constexpr auto kFields = std::make_tuple();
};
struct Shutdown {
  static constexpr std::string_view kOp = "shutdown";
  static constexpr auto kFields = std::make_tuple();
};

}  // namespace vmmcheck::run::peer
