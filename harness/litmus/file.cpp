#include "litmus/file.hpp"

namespace vmmcheck::litmus {

const char* name_of(Expect e) {
  switch (e) {
    case Expect::Permit: return "permit";
    case Expect::Assert: return "assert";
    case Expect::Check: return "check";
  }
  return "?";
}

ParseError::ParseError(std::string path, int line, int column, const std::string& message)
    : std::runtime_error(path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
      path_(std::move(path)),
      line_(line),
      column_(column) {}

}  // namespace vmmcheck::litmus
