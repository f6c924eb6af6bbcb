#pragma once
// The child side of isolation: `vmmcheck isolated-case --spec JSON` runs one case (or, with "alive",
// checks that the device answers), writes the result JSON to fd 3 and ends the process. The parent side
// is the Executor (executor.hpp); the process plumbing is isolation.hpp.
#include <string>

#include "run/execution/executor.hpp"

namespace vmmcheck::run {

// Harness failures in the child become an Error (or, for a device fault, Crash) result; only a spec that
// is not JSON throws (InputError).
[[noreturn]] void run_isolated_case_child(const std::string& spec_json);

// The spec a parent passes to its child.
std::string child_spec(const RunSettings& settings, const model::Case& c);
std::string alive_spec(int device);

}  // namespace vmmcheck::run
