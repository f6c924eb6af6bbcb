#include "cli/run_settings.hpp"

#include <filesystem>

#include "cli/version.hpp"
#include "litmus/folder.hpp"
#include "run/records/stress_params.hpp"

namespace vmmcheck::cli {

void resolve_stress(Options& o) {
  if (o.stress) o.budget.stress = run::stress_preset();
  if (!o.stress_params.empty()) {
    o.budget.stress = run::read_stress_params(o.stress_params);
    o.budget.row_stress = run::read_row_stress(o.stress_params);
    return;
  }
  // The knobs a litmus folder gives its own rows (docs/litmus.md, "The shipped files' own knobs"): its
  // stress-params.json's "rows", for the commands that run rows as a suite (an isolated child gets its
  // parent's budget whole, in its spec). --stress and --stress-params replace them; tune draws knobs for
  // every row itself.
  const bool runs_rows = o.command == Command::Run || o.command == Command::Selftest;
  if (o.stress || !runs_rows) return;
  for (const std::filesystem::path& p : litmus_paths(o)) {
    const std::filesystem::path file = p / litmus::kFolderStressParams;
    if (!std::filesystem::is_regular_file(file)) continue;
    for (run::RowStress& r : run::read_row_stress(file.string())) o.budget.row_stress.push_back(std::move(r));
  }
}

run::RunSettings run_settings(const Options& o, const model::Selection& selection, std::optional<run::Baseline> baseline) {
  run::RunSettings s;
  for (const auto& p : case_paths(o)) s.cases_paths.push_back(std::filesystem::absolute(p).string());
  s.cases_path_text = cases_path_text(o);
  s.selection = selection;
  s.device = o.device;
  s.budget = o.budget;
  s.allow_multicast = o.allow_multicast;
  s.mutant = o.mutant;
  s.program = self_program();
  s.isolate_all = o.isolate;
  s.timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  s.power = o.power;
  s.deep_power = o.deep_power;
  s.rerun_unoptimized = o.rerun_unoptimized;
  s.json_file = o.json_given ? o.json : o.resume;  // resuming without --json continues the same file
  s.resume_file = o.resume;
  s.write_when_nothing_ran = o.rank_file;
  s.baseline = std::move(baseline);
  s.tool_version = VMMCHECK_VERSION;
  s.git_sha = VMMCHECK_GIT_SHA;
  return s;
}

}  // namespace vmmcheck::cli
