// Fuzzes the command-line parser: the input is split into arguments at NUL and newline bytes. Every
// argument vector must parse, or end with help, the version or a usage error -- never crash or throw.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"vmmcheck"};
  std::string current;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) args.push_back(current);
  vmmcheck::cli::Options options;
  std::ostringstream out, err;
  vmmcheck::cli::parse_command_line(args, options, out, err);
  return 0;
}
