#include "cli/app.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "cli/cases.hpp"
#include "cli/command_line.hpp"
#include "cli/console.hpp"
#include "cli/explain.hpp"
#include "cli/list_json.hpp"
#include "cli/mpi_run.hpp"
#include "cli/options.hpp"
#include "cli/selftest.hpp"
#include "cli/tune.hpp"
#include "cli/version.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "device/machine.hpp"
#include "device/probe.hpp"
#include "model/loader.hpp"
#include "model/select.hpp"
#include "run/records/baseline.hpp"
#include "run/execution/executor.hpp"
#include "run/execution/power.hpp"
#include "run/kit/fd_transports.hpp"
#include "run/execution/peer_server.hpp"
#include "run/execution/isolated_child.hpp"
#include "run/kit/mutants.hpp"
#include "run/records/report_json.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::cli {
namespace {

void emit_json(const Options& o, const nlohmann::ordered_json& doc, std::ostream& out) {
  if (o.json.empty() || o.json == "-") out << doc.dump(2) << "\n";
  else run::write_results(o.json, doc);
}

int cmd_list(const Options& o, std::ostream& out) {
  const model::CaseTable table = load(o);
  const auto selected = model::select_cases(table.cases, o.filter);
  if (o.json_given) {
    emit_json(o, list_document(table, selected), out);
    return kExitOk;
  }
  std::size_t width = 0;
  for (const model::Case* c : selected) width = std::max(width, c->name.size());
  for (const model::Case* c : selected)
    out << c->name << std::string(width + 2 - c->name.size(), ' ') << model::to_string(c->verdict.expectation) << "\n";
  out << selected.size() << " cases\n";
  return kExitOk;
}

int cmd_explain(const Options& o, std::ostream& out) {
  const model::CaseTable table = load(o);
  std::vector<std::filesystem::path> results = shipped_results();
  if (!o.results.empty()) results = {o.results};
  std::vector<const model::Case*> chosen;
  for (const std::string& name : o.names) chosen.push_back(&model::find_case(table.cases, name));
  if (o.names.empty()) chosen = model::select_cases(table.cases, o.filter);
  bool first = true;
  for (const model::Case* c : chosen) {
    if (!first) out << "\n" << std::string(78, '-') << "\n\n";
    out << explain(*c, table.cases, results);
    first = false;
  }
  return kExitOk;
}

int cmd_probe(const Options& o, std::ostream& out) {
  device::ProbeReport report = device::probe(o.allow_multicast);
  report.fd_transports = run::probe_fd_transports();
  if (o.json_given) emit_json(o, device::to_json(report), out);
  else out << device::to_text(report);
  return kExitOk;
}

// Fills what the context block says about the machine; leaves devices empty when there is no GPU.
void describe_machine(run::RunContext& ctx, std::string& gpu_note) {
  const device::Machine m = device::describe_machine();
  ctx.driver_version = m.driver_version;
  ctx.driver_release = m.driver_release;
  ctx.runtime_version = m.runtime_version;
  ctx.devices = m.devices;
  gpu_note = m.no_gpu_reason;
}

// Results of an earlier, interrupted run that this one keeps (run --resume FILE).
std::map<std::string, run::CaseResult> resumed_results(const Options& o) {
  std::map<std::string, run::CaseResult> kept;
  if (o.resume.empty()) return kept;
  run::StoredRun stored = run::read_results(o.resume);
  // Resuming finishes the same run: the same cases, filter, device and budget. (Anything else would
  // mix results of different runs in one file, or drop the ones outside a new filter.)
  if (stored.budget != o.budget)
    throw InputError(o.resume + ": that run used another budget; resume it with the same --iterations, --instances, "
                     "--op-words, --seed and stress params");
  if (stored.cases_path != cases_path_text(o) || stored.filter != o.filter || stored.device != o.device)
    throw InputError(o.resume + ": that run had --cases '" + stored.cases_path + "' --filter '" + stored.filter +
                     "' --device " + std::to_string(stored.device) + "; resume it with the same");
  for (run::CaseResult& r : stored.results) {
    // A case the earlier run could not finish is run again, not kept.
    if (r.reason.rfind("not run:", 0) == 0) continue;
    kept[r.name] = std::move(r);
  }
  return kept;
}

// A result kept from the file being resumed, with what the case is taken from the tables of this run:
// a file of schema version 1 has no pattern or axes, and this run writes version 2.
run::CaseResult with_identity(run::CaseResult kept, const model::Case& c) {
  const run::CaseResult fresh = run::begin_result(c);
  kept.family = fresh.family;
  kept.pattern = fresh.pattern;
  kept.axes = fresh.axes;
  return kept;
}

int cmd_run(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.json_given && (o.json.empty() || o.json == "-"))
    throw InputError("run --json needs a FILE (results are written case by case)");
  const model::CaseTable table = load(o);
  const auto selected = model::select_cases(table.cases, o.filter);
  std::map<std::string, run::CaseResult> kept = resumed_results(o);
  std::optional<run::Baseline> baseline;
  if (!o.baseline.empty()) baseline = run::Baseline::read(o.baseline);
  // Resuming without --json continues the same file.
  const std::string json_file = o.json_given ? o.json : o.resume;

  run::RunContext ctx;
  ctx.tool_version = VMMCHECK_VERSION;
  ctx.git_sha = VMMCHECK_GIT_SHA;
  ctx.device = o.device;
  ctx.budget = o.budget;
  ctx.cases_path = cases_path_text(o);
  ctx.filter = o.filter;
  ctx.started = run::utc_now_iso8601();
  if (baseline) ctx.expectations = baseline->files();
  std::string gpu_note;
  describe_machine(ctx, gpu_note);
  out << header(ctx, selected.size(), table.cases.size(), gpu_note) << std::flush;
  if (baseline)
    for (const auto& [kind, path] : baseline->files()) out << "baseline " << kind << ": " << (path.empty() ? "(none)" : path) << "\n";

  run::ExecutorOptions eo;
  eo.program = self_program();
  for (const auto& p : case_paths(o)) eo.cases_paths.push_back(std::filesystem::absolute(p).string());
  eo.device = o.device;
  eo.budget = o.budget;
  eo.isolate_all = o.isolate;
  eo.timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  eo.gpu_present = !ctx.devices.empty();
  eo.no_gpu_reason = gpu_note;
  // The in-process session; with --isolate every case builds its own in a child instead.
  std::unique_ptr<run::GpuSession> session;
  if (eo.gpu_present && !o.isolate) {
    try {
      session = std::make_unique<run::GpuSession>(o.device, o.budget);
    } catch (const NotSupportedError& e) {
      eo.gpu_present = false;
      eo.no_gpu_reason = e.what();
    } catch (const CudaError& e) {
      eo.gpu_present = false;
      eo.no_gpu_reason = std::string("the GPU could not be set up: ") + e.what();
    }
  }
  const bool executor_has_gpu = eo.gpu_present;
  const std::string gpu_reason = eo.no_gpu_reason;
  run::Executor executor(std::move(eo), std::move(session));
  run::PowerCheck power(table.cases, executor);

  std::vector<run::CaseResult> results;
  results.reserve(selected.size());
  bool told_lost = false;
  // Without a GPU every GPU case is skipped for the same reason: say it once, not once per case (the
  // JSON still records every case; --verbose lists them).
  const bool quiet_skips = !executor_has_gpu && !o.verbose;
  std::size_t quietly_skipped = 0;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const model::Case& c = *selected[i];
    const auto earlier = kept.find(c.name);
    const bool resumed = earlier != kept.end();
    const std::optional<std::string> skip = baseline ? baseline->skipped_by(c.name) : std::nullopt;
    if (resumed) {
      results.push_back(with_identity(earlier->second, c));
      run::Baseline::reset(results.back());  // applied again below, from what vmmcheck reported
    } else if (skip) {
      results.push_back(run::not_run(c, run::Status::NotSupported, "not run: skipped by the baseline, " + *skip));
    } else if (std::optional<run::CaseResult> measured = power.measured(c)) {
      results.push_back(std::move(*measured));  // it ran already, as another case's control
    } else {
      results.push_back(executor.run(c));
    }
    if (!skip) power.record(c, results.back());
    const bool ran = results.back().status == run::Status::Pass || results.back().status == run::Status::Fail;
    if (o.power && ran && !results.back().power) power.attach(c, results.back());
    if (baseline) baseline->apply(results.back());
    const bool skipped_for_no_gpu = quiet_skips && !resumed && c.pattern().needs_gpu &&
                                    results.back().status == run::Status::NotSupported;
    if (skipped_for_no_gpu) ++quietly_skipped;
    else out << case_line(i + 1, selected.size(), results.back()) << (resumed ? "  (resumed)" : "") << "\n" << std::flush;
    if (!executor.device_lost().empty() && !told_lost) {
      err << "vmmcheck: " << executor.device_lost() << "; the remaining cases are recorded as not run\n";
      told_lost = true;
    }
    if (!json_file.empty()) run::write_results(json_file, run::results_document(ctx, results));
  }
  const Tally t = tally(results);
  if (o.power) out << power_lines(run::tally_power(results));
  if (quietly_skipped > 0)
    out << quietly_skipped << " case" << (quietly_skipped == 1 ? "" : "s") << " skipped for want of a GPU"
        << (ctx.devices.empty() ? "" : " (" + gpu_reason + ")") << "; --verbose lists them\n";
  out << baseline_lines(results) << tally_line(t) << "\n";
  if (t.failed > 0) return kExitFailure;
  if (t.warnings > 0 && o.strict) {
    err << "vmmcheck: " << t.warnings << " warning" << (t.warnings == 1 ? "" : "s") << " under --strict\n";
    return kExitFailure;
  }
  if (t.passed == 0 && t.warnings == 0 && t.tolerated == 0) {
    // The header names the reason when there is no GPU at all; say it here only if it has not.
    const bool told = ctx.devices.empty() || quietly_skipped > 0;
    err << "vmmcheck: nothing ran here" << (gpu_reason.empty() || told ? "" : ": " + gpu_reason) << "\n";
    return kExitNothingRunnable;
  }
  return kExitOk;
}

}  // namespace

int run_app(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (const int code = parse_command_line(args, o, out, err); code >= 0) return code;
  try {
    if (o.stress) o.budget.stress = run::stress_preset();
    if (!o.stress_params.empty()) o.budget.stress = run::read_stress_params(o.stress_params);
    // The runners (and isolated children) read the opt-in from the environment, as the gate does.
    if (o.command == Command::Run && o.allow_multicast) setenv("VMMCHECK_ALLOW_MULTICAST", "1", 1);
    if (!o.mutant.empty()) {
      setenv(run::kMutantVariable, o.mutant.c_str(), 1);
      run::active_mutant();  // an unknown name is a usage error now, not in the first case
    }
    switch (o.command) {
      case Command::List: return cmd_list(o, out);
      case Command::Explain: return cmd_explain(o, out);
      case Command::Probe: return cmd_probe(o, out);
      case Command::Tune: return cmd_tune(o, out);
      case Command::Selftest: return cmd_selftest(o, out, err);
      case Command::IsolatedCase: run::run_isolated_case_child(o.spec);
      case Command::IpcPeer: run::run_ipc_peer(o.device);
      case Command::Run:
        if (o.mpi) return run_with_mpi(o, out, err, [&](const Options& ro, std::ostream& ros) { return cmd_run(ro, ros, err); });
        return cmd_run(o, out, err);
    }
    return kExitFailure;
  } catch (const InputError& e) {
    err << "vmmcheck: " << e.what() << "\n";
    return kExitUsage;
  } catch (const NotSupportedError& e) {
    err << "vmmcheck: " << e.what() << "\n";
    return kExitNothingRunnable;
  } catch (const std::exception& e) {
    err << "vmmcheck: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace vmmcheck::cli
