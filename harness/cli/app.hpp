#pragma once
// The vmmcheck program: `list`, `run`, `explain`, `probe`. run_app() is main() without the process, so
// tests can drive the command line and check exit codes and output.
#include <iosfwd>
#include <string>
#include <vector>

namespace vmmcheck::cli {

// Exit codes (docs/design.md).
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNothingRunnable = 77;

int run_app(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace vmmcheck::cli
