#pragma once
// What power showed over a run's results (docs/design.md, "Power"), for its closing lines: counted from
// the records alone, so the console (cli/console.hpp) and the CPU-only build (-DVMMCHECK_GPU=OFF) have it
// without the executor that measures power (run/execution/power.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "run/records/result.hpp"

namespace vmmcheck::run {

// Counts for the run's closing lines.
struct PowerTally {
  std::size_t required = 0, required_discriminating = 0;
  std::size_t fault = 0, fault_discriminating = 0;
  std::vector<std::string> not_discriminating;  // required and fault cases whose control showed nothing
  // Litmus assert rows with controls (run/rows/row_power.hpp), apart: their controls are tests of their own.
  std::size_t rows = 0, rows_discriminating = 0;
  std::vector<std::string> rows_not_discriminating;
};
PowerTally tally_power(const std::vector<CaseResult>& results);

}  // namespace vmmcheck::run
