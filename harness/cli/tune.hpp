#pragma once
// `vmmcheck tune`: a bounded random search over the stress knobs (run/records/stress_params.hpp) that keeps the
// draw under which the controls of the in-kernel cases show the most weak outcomes per second of GPU
// time, and writes it as a params file for `run --stress-params FILE` (docs/design.md, "Stress").
#include <iosfwd>

#include "cli/options.hpp"

namespace vmmcheck::cli {

int cmd_tune(const Options& o, std::ostream& out);

}  // namespace vmmcheck::cli
