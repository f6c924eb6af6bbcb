#pragma once
// Controls (docs/design.md, "Power"): the control of a required or fault case is the case itself with
// the ordering mechanism it relies on removed by that mechanism's mutant -- the same launches, order and
// timing. Each pattern says which (control_of in its header). Where no switch can remove the mechanism
// from the same launches, the pattern names a separate case and says why; that case is the table's own
// where there is one (a run measures it once, under its own name and seed), else one made for the purpose.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/case.hpp"

namespace vmmcheck::model {

struct ControlCase {
  Case control;
  std::string mechanism;         // what it removes, e.g. "the event"
  std::optional<patterns::Mutant> mutant;  // set: `control` is the case itself under this mutant
  std::string separate_because;  // else: why a separate case is the control
};

// The control of `c` among `table` (every case loaded, selected or not); nothing for a case whose
// expectation is not required or fault, or whose pattern names no control for it. A control that may
// fault (by the oracle's reading, or because its mutant may make it) runs isolated.
std::optional<ControlCase> control_of(const Case& c, const std::vector<Case>& table);

// Whether an outcome says something about order. A timeout (the reader never saw the flag within its
// bound) does not: it is a stall, not a reordering, and a control that only stalls has shown nothing.
bool shows_order(const std::string& outcome);

// How many of a control's outcomes the case itself forbids: histogram counts outside c's verdict,
// timeouts left out (shows_order).
std::uint64_t violations_of(const Case& c, const std::vector<std::pair<std::string, std::uint64_t>>& histogram);

}  // namespace vmmcheck::model
