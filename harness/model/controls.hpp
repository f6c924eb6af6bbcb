#pragma once
// Controls (docs/design.md, "Power"): the control of a required or fault case is the same case with the
// ordering mechanism it relies on removed. Each pattern says what that is (control_of in its header);
// here the control becomes a case that can run: the table's own case with that definition where there
// is one (so a run measures it once, under its own name and seed), else a case made for the purpose.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/case.hpp"

namespace vmmcheck::model {

struct ControlCase {
  Case control;
  std::string mechanism;  // what it removes, e.g. "the event"
};

// The control of `c` among `table` (every case loaded, selected or not); nothing for a case whose
// expectation is not required or fault, or whose pattern names no control for it. A control that faults
// by the oracle's reading runs isolated.
std::optional<ControlCase> control_of(const Case& c, const std::vector<Case>& table);

// Whether an outcome says something about order. A timeout (the reader never saw the flag within its
// bound) does not: it is a stall, not a reordering, and a control that only stalls has shown nothing.
bool shows_order(const std::string& outcome);

// How many of a control's outcomes the case itself forbids: histogram counts outside c's verdict,
// timeouts left out (shows_order).
std::uint64_t violations_of(const Case& c, const std::vector<std::pair<std::string, std::uint64_t>>& histogram);

}  // namespace vmmcheck::model
