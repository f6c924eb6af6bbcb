#pragma once
// The one place that says how hard a run tries. Every knob has a default that certifies a GPU/driver;
// a run with less is marked "not certifying" in its results.
#include <cstdint>

#include "run/records/stress_params.hpp"

namespace vmmcheck::run {

struct Budget {
  // Litmus rows (and in-kernel cases of a pattern that takes stress): instances per case, at least. The instances
  // are spread over `iterations` launches; each launch re-places them with fresh permutations.
  std::uint64_t instances = 10'000'000;
  // Launches per in-kernel case; repetitions of an operation-level case (alias.kernels, alias.resident).
  std::uint32_t iterations = 4;
  // Launches per litmus row (its `instances` spread over them): each launch is a fresh placement, and
  // measured on the H200 placements bring out rare weak outcomes where more instances do not
  // (docs/litmus.md, "Speed"): 1e7 instances over 40 launches showed 70 of the 126 permit rows' weak
  // outcomes, over 4 launches 61, and 1e8 over 4 launches 66.
  std::uint32_t row_launches = 40;
  // Words an operation-level case writes and then reads per repetition (each word is one instance).
  std::uint64_t op_words = 1ull << 22;
  // Memory stress of the in-kernel cases (run/records/stress_params.hpp); none by default.
  StressParams stress;
  // Per-row knobs for litmus rows (a params file's "rows"): a matching row runs under them instead.
  std::vector<RowStress> row_stress;
  // Seeds placement permutations, partner choice and the values written.
  std::uint64_t seed = 1;
  // The bound on a resident grid's wait for its signal (a litmus round's flag wait: stress.spin_timeout_us).
  double resident_timeout_ms = 2000.0;

  // True when no knob is below its default: results from such a run can certify a GPU/driver.
  bool certifying() const;
};

// Every knob equal: results of two runs with equal budgets can be merged (run --resume).
bool operator==(const Budget& a, const Budget& b);
inline bool operator!=(const Budget& a, const Budget& b) { return !(a == b); }

}  // namespace vmmcheck::run
