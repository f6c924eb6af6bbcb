#pragma once
// Controls derived from an assert row (docs/litmus.md, "Power"): an assert row passes when the GPU never
// showed the outcome the model forbids, which proves something only if the same shape with one ordering
// taken away does show it. Each control is the row's test with one change -- a fence removed, an
// acquire, release or fence.sc weakened, a scope narrowed, a data dependency removed, an access moved
// onto another path to its memory (a physical alias, or another proxy), an operation boundary removed --
// kept when the model then allows the outcome the row forbids (the change took away what forbade it).
// A row that no one change lets through relies on two orderings at once; its controls make two changes,
// and so does `run --deep-power` for a row none of whose controls showed the outcome on its GPU (a strong
// access made weak being one more change there).
// Beside the single changes, one control takes every ordering away at once (every fence removed, every
// release and acquire relaxed): the shape with nothing that orders it, the control that shows the
// outcome most often where the GPU shows it at all.
// A run runs them beside the row and records, in the row's power, which showed the outcome and how
// often. No GPU here.
#include <string>
#include <vector>

#include "litmus/file.hpp"

namespace vmmcheck::litmus {

struct DerivedControl {
  Row row;                // the control: named "<row>.ctl_<change>", the row's condition, source its test_text
  std::string change;     // "ctl_relax_t1_1": the last part of its name
  std::string mechanism;  // what it takes away, e.g. "T1's ld.acquire.gpu r1, [flag] until 1 as ld.relaxed.gpu"
  // Two changes of one kind on two threads (both fence.sc removed, both sides' release and acquire
  // relaxed): where a shape's threads each hold one ordering, the pair that takes both away.
  bool symmetric = false;
};

// Every control derived from `row` (an assert row; none for another) that the model decides differently:
// one change each (or two, for a row no one change lets through), the distinct tests only, in thread and
// program order, then the one with every ordering taken away (`ctl_unordered`). Deep (run --deep-power, for a row none of whose plain controls showed the outcome on its
// GPU): those of two changes only, a strong access made weak among the changes. Empty for a row whose
// shape the model does not take.
enum class Depth { Plain, DeepPairs };
std::vector<DerivedControl> derived_controls(const Row& row, Depth depth = Depth::Plain);

}  // namespace vmmcheck::litmus
