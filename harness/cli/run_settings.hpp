#pragma once
// `vmmcheck run`'s settings from its command line, filled in one place (run/records/run_settings.hpp):
// the suite, the executor and every isolated child read what this gives.
#include <optional>

#include "cli/cases.hpp"
#include "cli/options.hpp"
#include "run/records/baseline.hpp"
#include "run/records/run_settings.hpp"

namespace vmmcheck::cli {

// The stress --stress or --stress-params names, into o.budget.stress (every command with a budget: run_app);
// without either, for run and selftest, the row knobs of the litmus folders' stress-params.json files.
void resolve_stress(Options& o);

// `o` as run reads it, with `selection` (what --filter, --caselist and --shard chose) and the baseline
// already read (or none). The results file is --json's, or, resuming without one, the file resumed.
run::RunSettings run_settings(const Options& o, const model::Selection& selection, std::optional<run::Baseline> baseline);

}  // namespace vmmcheck::cli
