#pragma once
// Recorded GPU counts of a two-register litmus row (r0, r1), for the CPU tests that judge rows and read
// their power from such counts.
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "run/rows/row_result.hpp"

namespace vmmcheck::run::fixture {

inline RowOutcomes seen(std::map<std::vector<std::uint32_t>, std::uint64_t> counts) {
  RowOutcomes o;
  o.registers = {"r0", "r1"};
  o.counts = std::move(counts);
  for (const auto& [v, n] : o.counts) o.instances += n;
  return o;
}

}  // namespace vmmcheck::run::fixture
