#include "cli/app.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/bench_cmd.hpp"
#include "cli/cases.hpp"
#include "cli/command_line.hpp"
#include "cli/console.hpp"
#include "cli/explain.hpp"
#include "cli/list_json.hpp"
#include "cli/model_cmd.hpp"
#include "cli/mpi_run.hpp"
#include "cli/options.hpp"
#include "cli/selftest.hpp"
#include "cli/tune.hpp"
#include "cli/version.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "device/probe.hpp"
#include "model/loader.hpp"
#include "model/select.hpp"
#include "run/execution/suite.hpp"
#include "run/records/baseline.hpp"
#include "run/kit/fd_transports.hpp"
#include "run/execution/peer_server.hpp"
#include "run/execution/isolated_child.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/support.hpp"
#include "run/records/report_json.hpp"
#include "run/litmus/row_result.hpp"

namespace vmmcheck::cli {
namespace {

void emit_json(const Options& o, const nlohmann::ordered_json& doc, std::ostream& out) {
  if (o.json.empty() || o.json == "-") out << doc.dump(2) << "\n";
  else run::write_results(o.json, doc);
}

// With --here, the support stage's answer for each case on this machine ("" where it can run).
std::vector<std::string> here_answers(const Options& o, const std::vector<const model::Case*>& selected) {
  std::vector<std::string> why(selected.size());
  try {
    const device::ProbeReport machine = run::describe_for_support();
    for (std::size_t i = 0; i < selected.size(); ++i) why[i] = run::why_not_here(*selected[i], machine, o.device);
  } catch (const NotSupportedError& e) {
    for (std::size_t i = 0; i < selected.size(); ++i)
      if (selected[i]->pattern().needs_gpu) why[i] = e.what();
  }
  return why;
}

int cmd_list(const Options& o, std::ostream& out) {
  const model::CaseTable table = load(o);
  const auto selected = model::select_cases(table.cases, o.filter);
  const std::vector<std::string> why = o.here ? here_answers(o, selected) : std::vector<std::string>{};
  if (o.json_given) {
    nlohmann::ordered_json doc = list_document(table, selected);
    if (o.here)
      for (std::size_t i = 0; i < selected.size(); ++i)
        doc["cases"][i]["here"] = why[i].empty() ? nlohmann::ordered_json{{"runs", true}}
                                                 : nlohmann::ordered_json{{"runs", false}, {"why_not", why[i]}};
    emit_json(o, doc, out);
    return kExitOk;
  }
  std::size_t width = 0, runnable = 0;
  for (const model::Case* c : selected) width = std::max(width, c->name.size());
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const model::Case* c = selected[i];
    out << c->name << std::string(width + 2 - c->name.size(), ' ') << model::to_string(c->verdict.expectation);
    if (o.here) {
      const std::string expectation = model::to_string(c->verdict.expectation);
      out << std::string(11 - std::min<std::size_t>(10, expectation.size()), ' ')
          << (why[i].empty() ? "runs here" : "not here: " + why[i]);
      runnable += why[i].empty();
    }
    out << "\n";
  }
  out << selected.size() << " cases";
  if (o.here) out << ", " << runnable << " can run here";
  out << "\n";
  // The litmus rows `run` runs after the cases (docs/litmus.md); `vmmcheck model` lists and decides them.
  if (const std::size_t rows = litmus_rows(o).size(); rows > 0)
    out << "and " << rows << " litmus rows (cases/litmus: 'vmmcheck model' lists them with their verdicts)\n";
  return kExitOk;
}

int cmd_explain(const Options& o, std::ostream& out) {
  const model::CaseTable table = load(o);
  std::vector<std::filesystem::path> results = shipped_results();
  if (!o.results.empty()) results = {o.results};
  // A name litmus.<row> is a litmus row of the shipped files (or of --litmus), the rest are cases.
  std::vector<litmus::Row> rows;
  std::vector<std::string> texts;
  for (const std::string& name : o.names) {
    if (name.rfind("litmus.", 0) != 0) {
      texts.push_back(explain(model::find_case(table.cases, name), table.cases, results));
      continue;
    }
    if (rows.empty()) rows = litmus_rows(o);
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const litmus::Row& r) { return run::case_name_of(r) == name; });
    if (row == rows.end()) throw InputError("unknown litmus row '" + name + "' ('vmmcheck model cases/litmus' lists them)");
    texts.push_back(explain(*row, results));
  }
  if (o.names.empty())
    for (const model::Case* c : model::select_cases(table.cases, o.filter)) texts.push_back(explain(*c, table.cases, results));
  for (std::size_t i = 0; i < texts.size(); ++i) out << (i ? "\n" + std::string(78, '-') + "\n\n" : "") << texts[i];
  return kExitOk;
}

int cmd_probe(const Options& o, std::ostream& out) {
  device::ProbeReport report = device::probe(o.allow_multicast);
  report.fd_transports = run::probe_fd_transports();
  if (o.json_given) emit_json(o, device::to_json(report), out);
  else out << device::to_text(report);
  return kExitOk;
}

int cmd_run(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.json_given && (o.json.empty() || o.json == "-"))
    throw InputError("run --json needs a FILE (results are written case by case)");
  const model::CaseTable table = load(o);
  // --litmus runs those files alone; otherwise the cases and the shipped litmus rows (docs/litmus.md).
  const auto selected = o.litmus.empty() ? model::select_cases_or_none(table.cases, o.filter) : std::vector<const model::Case*>{};
  const std::vector<litmus::Row> rows = litmus_rows(o);
  if (selected.empty() && rows.empty()) throw InputError("no case or litmus row matches the filter '" + o.filter + "'");
  const std::size_t total = selected.size() + rows.size();

  run::SuiteOptions so;
  for (const auto& p : case_paths(o)) so.cases_paths.push_back(std::filesystem::absolute(p).string());
  so.cases_path_text = cases_path_text(o);
  so.filter = o.filter;
  so.device = o.device;
  so.budget = o.budget;
  so.program = self_program();
  so.isolate_all = o.isolate;
  so.timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  so.power = o.power;
  so.json_file = o.json_given ? o.json : o.resume;  // resuming without --json continues the same file
  so.resume_file = o.resume;
  if (!o.baseline.empty()) so.baseline = run::Baseline::read(o.baseline);
  so.tool_version = VMMCHECK_VERSION;
  so.git_sha = VMMCHECK_GIT_SHA;
  run::Suite suite(std::move(so), table.cases);

  const run::RunContext& ctx = suite.context();
  out << header(ctx, total, table.cases.size() + rows.size(), suite.no_gpu_reason()) << std::flush;
  for (const auto& [kind, path] : ctx.expectations) out << "baseline " << kind << ": " << (path.empty() ? "(none)" : path) << "\n";
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
      case Command::Model: return cmd_model(o, out);
      case Command::Bench: return cmd_bench(o, out);
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
