#pragma once
// `vmmcheck model FILE|DIR...` (docs/litmus.md): every row of every litmus file decided by the PTX proxy
// model, no GPU. Each row: allowed or forbidden, with the witness execution or the axioms (--verbose),
// and whether that is what the row's permit/assert says. Exit 1 on any disagreement, 2 on a malformed file.
#include <iostream>

#include "cli/options.hpp"

namespace vmmcheck::cli {

// With --json the console still says how many rows disagree and shows each (stderr when the JSON is stdout).
int cmd_model(const Options& o, std::ostream& out, std::ostream& err);

}  // namespace vmmcheck::cli
