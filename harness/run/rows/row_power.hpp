#pragma once
// A litmus row's power (docs/litmus.md, "Power"): an assert row's Pass is evidence only when a control
// -- the row with one ordering taken away (litmus/derived_controls.hpp), or a permit row its file names
// -- showed the outcome the row forbids on the same GPU. The engine runs the controls; this says which
// they are and reads what they showed into the row's Power. No GPU here: CPU tests check it on counts.
#include <optional>
#include <string>
#include <vector>

#include "litmus/file.hpp"
#include "run/records/result.hpp"
#include "run/rows/row_result.hpp"

namespace vmmcheck::run {

struct RowControl {
  std::string name;       // as results name it: the named row's case name, or "<row's case name>.<token>"
  litmus::Row row;        // the control, asked the row's question: the row's condition, assert
  std::string token;      // the last part of its name, e.g. "ctl_relax_t1_1", or the named row's command
  std::string mechanism;  // what it takes away
};

// The controls of `row`: the one its file names first (`control NAME`), then the derived ones, those
// that narrow a scope last (the slowest to run). None for a row that is not an assert row, or whose
// violation the model allows.
std::vector<RowControl> controls_of(const litmus::Row& row);

// The second round of run --deep-power, for a row none of whose controls showed the outcome on the GPU:
// the controls of two changes (litmus::Depth::DeepPairs), at most `most` of them: first those taking one
// ordering (a fence, a release or acquire) from each of two threads alike (a shape whose threads each
// hold one: IRIW's two fence.sc), then those
// with a change to a weak access or onto another path (the changes that showed most often on the H200:
// docs/litmus.md, "Power"), then the rest.
std::vector<RowControl> second_controls_of(const litmus::Row& row, std::size_t most);

// What one control showed: its outcomes, or why it did not run.
struct ControlRun {
  const RowControl* control = nullptr;
  std::optional<RowOutcomes> seen;  // nothing: it did not run
  Status status = Status::Error;    // NotSupported or Error when it did not run
  std::string reason;
  double seconds = 0;  // wall time, its compile (or the wait for it) included
};

// Whether the control ran and showed the outcome its row forbids (judged as the row is).
bool showed_forbidden(const ControlRun& run);

// The row's Power from its controls' runs: `tried` lists each; the top-level fields are the control
// that showed the forbidden outcome most often (by rate), or the first when none showed it.
Power row_power(const std::vector<ControlRun>& runs);

}  // namespace vmmcheck::run
