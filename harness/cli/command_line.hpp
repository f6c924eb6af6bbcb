#pragma once
// The command line, parsed with CLI11 into Options and nothing else: no case file is read and no GPU
// is touched here, so the parser can be fuzzed on its own (fuzz/fuzz_command_line.cpp).
#include <ostream>
#include <string>
#include <vector>

#include "cli/options.hpp"

namespace vmmcheck::cli {

// Parses args (args[0] is the program name). Returns -1 when `o` holds a command to execute; otherwise
// the exit code to end with, after printing help, the version, or a usage error to `err`.
int parse_command_line(const std::vector<std::string>& args, Options& o, std::ostream& out, std::ostream& err);

// The environment twins of a command's flags ("run": VMMCHECK_FILTER, VMMCHECK_JSON, ...; docs/design.md,
// "Environment twins").
std::vector<std::string> twins_of(const std::string& command);

}  // namespace vmmcheck::cli
