#include "run/records/power_tally.hpp"

namespace vmmcheck::run {

PowerTally tally_power(const std::vector<CaseResult>& results) {
  PowerTally t;
  for (const CaseResult& r : results) {
    if (!r.power) continue;
    if (r.pattern == "litmus") {
      ++t.rows;
      if (r.power->discriminating()) ++t.rows_discriminating;
      else t.rows_not_discriminating.push_back(r.name);
      continue;
    }
    const bool required = r.expectation == model::Expectation::Required;
    (required ? t.required : t.fault) += 1;
    if (r.power->discriminating()) (required ? t.required_discriminating : t.fault_discriminating) += 1;
    else t.not_discriminating.push_back(r.name);
  }
  return t;
}

}  // namespace vmmcheck::run
