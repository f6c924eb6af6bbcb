#include "cli/gpu_commands.hpp"

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <optional>

#include "cli/app.hpp"
#include "cli/bench_cmd.hpp"
#include "cli/console.hpp"
#include "cli/mpi_run.hpp"
#include "cli/run_settings.hpp"
#include "cli/selftest.hpp"
#include "cli/toolchain_cmd.hpp"
#include "cli/tune.hpp"
#include "cli/version.hpp"
#include "codegen/generator.hpp"
#include "common/error.hpp"
#include "device/probe.hpp"
#include "run/execution/isolated_child.hpp"
#include "run/execution/peer_server.hpp"
#include "run/execution/process_settings.hpp"
#include "run/execution/suite.hpp"
#include "run/kit/fd_transports.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/support.hpp"
#include "run/records/baseline.hpp"
#include "run/records/output_file.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::cli {
namespace {

int cmd_probe(const Options& o, std::ostream& out) {
  claim_json(o, "probe");
  device::ProbeReport report = device::probe(o.allow_multicast);
  report.fd_transports = run::probe_fd_transports();
  if (o.json_given) emit_json(o, device::to_json(report), out);
  else out << device::to_text(report);
  return kExitOk;
}

int cmd_run(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.json_given && (o.json.empty() || o.json == "-"))
    throw InputError("run --json needs a FILE (results are written case by case)");
  if (const std::string& json_file = o.json_given ? o.json : o.resume; !json_file.empty()) run::claim_output(json_file, "results", input_files(o));
  // A run writes its own results: over a file of another run's it would leave only what it ran (one case
  // of a suite's 749, say). Adding to a run is --resume; otherwise the user names another file.
  if (o.json_given && o.resume != o.json && run::document_kind_of_file(o.json) == std::optional<std::string>("results"))
    throw InputError(o.json + ": holds the results of another run; a run would replace them (--resume " + o.json +
                     " adds to that run, or name another file)");
  const model::CaseTable table = load(o);
  // --litmus runs those files alone; otherwise the cases and the shipped litmus rows (docs/litmus.md).
  const Selected s = select(o, table);
  const std::vector<const model::Case*>& selected = s.cases;
  const std::vector<litmus::Row>& rows = s.rows;
  if (selected.empty() && rows.empty()) throw InputError("no case or litmus row matches " + selection_text(o));
  const std::size_t total = selected.size() + rows.size();
  std::optional<run::Baseline> baseline;
  if (!o.baseline.empty()) {
    baseline = run::Baseline::read(o.baseline);
    // A row naming no case there is -- a misspelt name, a case renamed since -- would tolerate nothing and
    // say nothing; every name a table or litmus file has is known, whatever this run selects.
    for (const std::string& problem : baseline->unknown_rows(s.known)) {
      if (!o.allow_unknown) throw InputError(problem + " (--allow-unknown makes it a warning)");
      err << "vmmcheck: warning: " << problem << "\n";
    }
  }

  run::Suite suite(run_settings(o, s.selection, std::move(baseline)), table.cases);
  suite.check_resumed(selected, rows);

  const run::RunContext& ctx = suite.context();
  // Of everything there is to select: the cases and rows, or with --litmus the files' rows alone.
  const std::size_t there = o.litmus.empty() ? s.known.size() : s.known.size() - table.cases.size();
  out << header(ctx, total, there, suite.no_gpu_reason(), o.litmus) << std::flush;
  for (const auto& [kind, path] : ctx.expectations) out << "baseline " << kind << ": " << (path.empty() ? "(none)" : path) << "\n";
  // The rows' kernels compile on every core while the cases run.
  suite.compile_ahead(rows);
  bool told_lost = false;
  // Without a GPU every GPU case is skipped for the same reason: say it once, not once per case (the
  // JSON still records every case; --verbose lists them).
  const bool quiet_skips = !suite.gpu_present() && !o.verbose;
  std::size_t quietly_skipped = 0;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const model::Case& c = *selected[i];
    const run::Suite::Step step = suite.run(c);
    const bool skipped_for_no_gpu = quiet_skips && !step.resumed && c.pattern().needs_gpu &&
                                    step.result.status == run::Status::NotSupported;
    if (skipped_for_no_gpu) ++quietly_skipped;
    else out << case_line(i + 1, total, step.result) << (step.resumed ? "  (resumed)" : "") << "\n" << std::flush;
    if (!suite.device_lost().empty() && !told_lost) {
      err << "vmmcheck: " << suite.device_lost() << "; the remaining cases are recorded as not run\n";
      told_lost = true;
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const run::Suite::Step step = suite.run(rows[i]);
    const bool skipped_for_no_gpu = quiet_skips && !step.resumed && step.result.status == run::Status::NotSupported;
    if (skipped_for_no_gpu) ++quietly_skipped;
    else out << case_line(selected.size() + i + 1, total, step.result) << (step.resumed ? "  (resumed)" : "") << "\n" << std::flush;
  }
  const std::vector<run::CaseResult>& results = suite.results();
  const Tally t = tally(results);
  if (o.power) out << power_lines(run::tally_power(results));
  if (quietly_skipped > 0)
    out << quietly_skipped << " case" << (quietly_skipped == 1 ? "" : "s") << " skipped for want of a GPU"
        << (ctx.devices.empty() ? "" : " (" + suite.no_gpu_reason() + ")") << "; --verbose lists them\n";
  out << baseline_lines(results) << tally_line(t) << "\n";
  if (t.failed > 0) return kExitFailure;
  if (t.warnings > 0 && o.strict) {
    err << "vmmcheck: " << t.warnings << " warning" << (t.warnings == 1 ? "" : "s") << " under --strict\n";
    return kExitFailure;
  }
  if (t.passed == 0 && t.warnings == 0 && t.tolerated == 0) {
    // The header names the reason when there is no GPU at all; say it here only if it has not.
    const bool told = ctx.devices.empty() || quietly_skipped > 0;
    err << "vmmcheck: nothing ran here" << (suite.no_gpu_reason().empty() || told ? "" : ": " + suite.no_gpu_reason()) << "\n";
    return kExitNothingRunnable;
  }
  return kExitOk;
}

}  // namespace

HereAnswers here_answers(const Options& o, const Selected& s) {
  HereAnswers why{std::vector<std::string>(s.cases.size()), std::vector<std::string>(s.rows.size())};
  try {
    const device::ProbeReport machine = run::describe_for_support();
    for (std::size_t i = 0; i < s.cases.size(); ++i) why.cases[i] = run::why_not_here(*s.cases[i], machine, o.device);
    for (std::size_t i = 0; i < s.rows.size(); ++i) why.rows[i] = codegen::why_not_generated(s.rows[i].test);
  } catch (const NotSupportedError& e) {
    for (std::size_t i = 0; i < s.cases.size(); ++i)
      if (s.cases[i]->pattern().needs_gpu) why.cases[i] = e.what();
    // A row no generated kernel runs says so on any machine; the rest need the GPU that is missing.
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
      why.rows[i] = codegen::why_not_generated(s.rows[i].test);
      if (why.rows[i].empty()) why.rows[i] = e.what();
    }
  }
  return why;
}

int run_gpu_command(const Options& o, std::ostream& out, std::ostream& err) {
  // What the runners read from the environment (the multicast opt-in, as the gate does; the mutant), set
  // before anything of the run asks -- an mpi rank's peer server included; each isolated child sets it
  // again from the settings it is given.
  if (o.command == Command::Run) run::apply_to_process(run_settings(o, {}, std::nullopt));
  switch (o.command) {
    case Command::Probe: return cmd_probe(o, out);
    case Command::Tune: return cmd_tune(o, out);
    case Command::Selftest: return cmd_selftest(o, out, err);
    case Command::Toolchain: return cmd_toolchain(o, out, err);
    case Command::Bench: return cmd_bench(o, out);
    case Command::IsolatedCase: run::run_isolated_case_child(o.spec);
    case Command::IpcPeer: run::run_ipc_peer(o.device);
    case Command::Run:
      if (o.mpi) return run_with_mpi(o, out, err, [&](const Options& ro, std::ostream& ros) { return cmd_run(ro, ros, err); });
      return cmd_run(o, out, err);
    case Command::List:
    case Command::Explain:
    case Command::Model: break;  // cli/app.cpp's
  }
  return kExitFailure;
}

}  // namespace vmmcheck::cli
