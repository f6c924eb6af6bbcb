#pragma once
// A run of the suite: what `vmmcheck run`, the GPU ctests and the leak test all do, in one place. It
// describes the machine (the results' context, and the support stage's description), builds the
// in-process GPU session -- or records why there is none -- and the executor; then, case by case, it
// keeps a result of the run being resumed, or asks the support stage whether the case can run here
// (run/kit/support.hpp: NotSupported with the reason, before anything is allocated), or runs it (a
// control measured earlier is used again), measures its control (power), applies the baseline, and
// rewrites the JSON file, so a run killed at any point keeps every finished case. The caller chooses the
// cases and prints.
#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "device/probe.hpp"
#include "litmus/file.hpp"
#include "model/case.hpp"
#include "model/select.hpp"
#include "run/execution/executor.hpp"
#include "run/execution/power.hpp"
#include "run/kit/session.hpp"
#include "run/records/baseline.hpp"
#include "run/records/budget.hpp"
#include "run/records/report_json.hpp"
#include "run/records/result.hpp"
#include "run/records/run_settings.hpp"
#include "run/rows/row_power.hpp"

namespace vmmcheck::run {

class RowEngine;  // run/rows/engine.hpp

class Suite {
 public:
  // `table`: every case loaded (controls are found among them). Throws InputError for a results file
  // to resume that is of another run (naming every difference), before anything is written.
  Suite(RunSettings settings, const std::vector<model::Case>& table);
  ~Suite();

  const RunContext& context() const { return context_; }
  // Whether cases that need a GPU can run here, and why not.
  bool gpu_present() const { return gpu_present_; }
  const std::string& no_gpu_reason() const { return no_gpu_reason_; }

  struct Step {
    const CaseResult& result;
    bool resumed;  // kept from the run being resumed, not run now
  };
  // Runs (or keeps) case `c` and records it; see the top of this file.
  Step run(const model::Case& c);
  // Runs (or keeps) one litmus row (docs/litmus.md) in this process, on the suite's device, and records
  // it as a case named litmus.<row> (or the case it stands for: litmus::case_name_of): the same resume,
  // baseline and JSON as a case.
  Step run(const litmus::Row& row);
  // Before the first case, with what this run selects: an InputError, the file left as it is, when the
  // results being resumed hold a case or row this run does not select (resuming would drop it) or one
  // made of another test than the one of that name here (another question or verdict: its histogram
  // would stand as this row's).
  void check_resumed(const std::vector<const model::Case*>& cases, const std::vector<litmus::Row>& rows) const;
  // Starts compiling, in the background on every core, the kernels of the rows this run will run (those
  // neither kept from the run being resumed nor skipped by the baseline); call it before the first case.
  void compile_ahead(const std::vector<litmus::Row>& rows);

  const std::vector<CaseResult>& results() const { return results_; }
  // Empty while the GPU answers; after a crash it did not survive, the reason (the rest is not run).
  const std::string& device_lost() const { return executor_->device_lost(); }
  bool isolates(const model::Case& c) const { return executor_->isolates(c); }

 private:
  RunSettings options_;
  RunContext context_;  // this run's, for the header
  Json context_block_;  // what the results file's context says: this run's, or the resumed file's own
  bool gpu_present_ = false;
  std::string no_gpu_reason_;
  std::optional<device::ProbeReport> machine_;  // the support stage's description of this machine
  std::unique_ptr<Executor> executor_;
  std::unique_ptr<PowerCheck> power_;
  RowEngine& engine();                       // made on first use, on the executor's session
  // Runs an assert row's controls (run/rows/row_power.hpp), in their order until one shows the outcome,
  // and sets r.power; when none showed it and deep_power is set, a second round of at most kSecondRound
  // controls of two changes, the same way.
  void attach_row_power(const litmus::Row& row, CaseResult& r);
  static constexpr std::size_t kSecondRound = 24;
  void run_controls(const std::deque<RowControl>& controls, std::size_t from, std::vector<ControlRun>& runs);
  std::unique_ptr<GpuSession> row_session_;  // the engine's own, when every case runs isolated
  std::unique_ptr<RowEngine> engine_;
  std::map<std::string, CaseResult> kept_;  // from the run being resumed
  std::vector<CaseResult> results_;
  // Writes the results file (RunSettings::json_file) once some case has run (suite.cpp says why).
  void save(const CaseResult& latest);
  bool anything_ran_ = false;
  std::optional<ResultsFile> file_;  // every result so far, each serialized once
};

}  // namespace vmmcheck::run
