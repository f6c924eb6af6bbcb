#pragma once
// Console formatting: the run header, one line per case, and the closing tally line.
#include <string>
#include <vector>

#include "run/records/power_tally.hpp"
#include "run/records/report_json.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::cli {

std::string human_count(std::uint64_t n);  // 12345678 -> "12.3M"
std::string histogram_summary(const run::Histogram& h);
std::string case_line(std::size_t index, std::size_t total, const run::CaseResult& r);
// `litmus`: the files run --litmus runs instead of the case tables (empty: the tables and cases/litmus);
// the header names what it runs.
std::string header(const run::RunContext& c, std::size_t selected, std::size_t total, const std::string& gpu_note,
                   const std::vector<std::string>& litmus = {});

struct Tally {
  std::size_t passed = 0, failed = 0, skipped = 0, warnings = 0;
  std::size_t tolerated = 0;  // ExpectedFail and Flake: failures a baseline lists
};
Tally tally(const std::vector<run::CaseResult>& results);
// "N passed, [N warnings, ][N expected by the baseline, ]N failed, N skipped": failed counts Fail, Crash,
// Timeout, Error and UnexpectedPass; skipped NotSupported and Skip.
std::string tally_line(const Tally& t);
// With a baseline: the listed cases that now pass (update the list), and what else it changed; "" without.
std::string baseline_lines(const std::vector<run::CaseResult>& results);

// The power of a case, for its line: what its control showed (empty for a case without one).
std::string power_summary(const run::CaseResult& r);
// "power: N of M required and ... fault cases discriminating here", then the cases that are not (capped).
std::string power_lines(const run::PowerTally& t);

}  // namespace vmmcheck::cli
