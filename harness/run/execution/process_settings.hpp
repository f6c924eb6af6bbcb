#pragma once
// The settings the runners read from the process's environment rather than from their arguments, set
// from the run's settings: in `vmmcheck run` and again in each isolated child from the settings it is
// given. The multicast opt-in is read where the gate decides (device/multicast_gate.hpp); the mutant
// where a runner asks for it (run/kit/mutants.hpp).
#include "run/records/run_settings.hpp"

namespace vmmcheck::run {

// Sets VMMCHECK_ALLOW_MULTICAST=1 when the settings opt in (never unsets one the user set) and the
// mutant's variable when there is one; an unknown mutant is an InputError here, not in the first case.
void apply_to_process(const RunSettings& settings);

}  // namespace vmmcheck::run
