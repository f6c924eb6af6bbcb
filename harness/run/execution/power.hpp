#pragma once
// Detection power in a run (docs/design.md, "Power"): for each required or fault case, its control --
// the same case with its ordering mechanism removed (model/controls.hpp) -- runs on the same GPU, and the
// case's result records what the control did. A control that is a case of the tables is measured once,
// under its own name and seed: when the run reaches that case, or another case with the same control,
// the measurement is used again.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/case.hpp"
#include "run/execution/executor.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::run {

class PowerCheck {
 public:
  // `table`: every case loaded (controls are found among them); `executor` runs the controls.
  PowerCheck(const std::vector<model::Case>& table, Executor& executor) : table_(table), executor_(executor) {}

  // What `c` measured earlier in this run, as another case's control; nothing if it did not run yet.
  std::optional<CaseResult> measured(const model::Case& c) const;
  // Records what `c` measured, for the cases it is the control of.
  void record(const model::Case& c, const CaseResult& r);
  // Runs (or reuses) the control of `c` and sets r.power; leaves it empty for a case without a control.
  void attach(const model::Case& c, CaseResult& r);

 private:
  const std::vector<model::Case>& table_;
  Executor& executor_;
  std::map<std::string, CaseResult> by_name_;
};

}  // namespace vmmcheck::run
