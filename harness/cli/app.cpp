#include "cli/app.hpp"

#include <CLI/CLI.hpp>
#include <cuda_runtime_api.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/console.hpp"
#include "cli/explain.hpp"
#include "cli/options.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "device/probe.hpp"
#include "model/loader.hpp"
#include "model/select.hpp"
#include "run/report_json.hpp"
#include "run/session.hpp"

#ifndef VMMCHECK_VERSION
#define VMMCHECK_VERSION "0.0.0"
#endif
#ifndef VMMCHECK_GIT_SHA
#define VMMCHECK_GIT_SHA "unknown"
#endif

namespace vmmcheck::cli {
namespace {

model::CaseTable load(const Options& o) {
  return model::load_cases(o.cases.empty() ? model::default_cases_path() : std::filesystem::path(o.cases));
}

std::string cases_path(const Options& o) {
  return o.cases.empty() ? model::default_cases_path().string() : o.cases;
}

void emit_json(const Options& o, const nlohmann::json& doc, std::ostream& out) {
  if (o.json.empty() || o.json == "-") out << doc.dump(2) << "\n";
  else run::write_results(o.json, doc);
}

int cmd_list(const Options& o, std::ostream& out) {
  const model::CaseTable table = load(o);
  const auto selected = model::select_cases(table.cases, o.filter);
  if (o.json_given) {
    nlohmann::json list = nlohmann::json::array();
    for (const model::Case* c : selected)
      list.push_back({{"name", c->name}, {"family", c->family}, {"expectation", model::to_string(c->verdict.expectation)},
                      {"labels", c->labels}, {"rule", c->verdict.rule}});
    emit_json(o, list, out);
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
    out << explain(*c, results);
    first = false;
  }
  return kExitOk;
}

int cmd_probe(const Options& o, std::ostream& out) {
  const device::ProbeReport report = device::probe(o.allow_multicast);
  if (o.json_given) emit_json(o, device::to_json(report), out);
  else out << device::to_text(report);
  return kExitOk;
}

// Fills what the context block says about the machine; leaves devices empty when there is no GPU.
void describe_machine(run::RunContext& ctx, std::string& gpu_note) {
  cudaDriverGetVersion(&ctx.driver_version);
  std::ostringstream proc;
  proc << std::ifstream("/proc/driver/nvidia/version").rdbuf();
  ctx.driver_release = run::driver_release_from(proc.str());
  cudaRuntimeGetVersion(&ctx.runtime_version);
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();
    gpu_note = std::string("no CUDA GPU here: ") + (err != cudaSuccess ? cudaGetErrorName(err) : "0 devices");
    return;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    ctx.devices.push_back({i, p.name, std::to_string(p.major) + "." + std::to_string(p.minor)});
  }
}

int cmd_run(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.json_given && (o.json.empty() || o.json == "-"))
    throw InputError("run --json needs a FILE (results are written case by case)");
  const model::CaseTable table = load(o);
  const auto selected = model::select_cases(table.cases, o.filter);

  run::RunContext ctx;
  ctx.tool_version = VMMCHECK_VERSION;
  ctx.git_sha = VMMCHECK_GIT_SHA;
  ctx.device = o.device;
  ctx.budget = o.budget;
  ctx.cases_path = cases_path(o);
  ctx.filter = o.filter;
  ctx.started = run::utc_now_iso8601();
  std::string gpu_note;
  describe_machine(ctx, gpu_note);
  out << header(ctx, selected.size(), table.cases.size(), gpu_note) << std::flush;

  std::unique_ptr<run::GpuSession> session;
  std::string unsupported;
  try {
    if (!ctx.devices.empty()) session = std::make_unique<run::GpuSession>(o.device, o.budget);
    else unsupported = gpu_note;
  } catch (const NotSupportedError& e) {
    unsupported = e.what();
  } catch (const CudaError& e) {
    unsupported = std::string("the GPU could not be set up: ") + e.what();
  }

  std::vector<run::CaseResult> results;
  results.reserve(selected.size());
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const model::Case& c = *selected[i];
    results.push_back(session ? session->run(c) : run::not_run(c, run::Status::NotSupported, unsupported));
    out << case_line(i + 1, selected.size(), results.back()) << "\n" << std::flush;
    if (o.json_given) run::write_results(o.json, run::results_document(ctx, results));
  }
  const Tally t = tally(results);
  out << tally_line(t) << "\n";
  if (t.failed > 0) return kExitFailure;
  if (t.passed == 0) {
    err << "vmmcheck: nothing ran here" << (unsupported.empty() ? "" : ": " + unsupported) << "\n";
    return kExitNothingRunnable;
  }
  return kExitOk;
}

// Adds the options every subcommand shares; each has a VMMCHECK_* environment twin.
void add_common(CLI::App& cmd, Options& o) {
  cmd.add_option("--cases", o.cases, "case table file or folder (default: the shipped cases/)")->envname("VMMCHECK_CASES");
  cmd.add_option("--filter", o.filter, "comma-separated globs over dotted case names; -GLOB excludes")->envname("VMMCHECK_FILTER");
}

void add_json(CLI::App& cmd, Options& o, const std::string& what) {
  cmd.add_option("--json", o.json, what)->expected(0, 1)->envname("VMMCHECK_JSON");
}

void add_budget(CLI::App& cmd, Options& o) {
  run::Budget& b = o.budget;
  cmd.add_option("--iterations", b.iterations, "launches per in-kernel case, repetitions per operation case")
      ->envname("VMMCHECK_ITERATIONS")->check(CLI::Range(1u, 1000000u));
  cmd.add_option("--instances", b.instances, "litmus instances per in-kernel case (at least)")
      ->envname("VMMCHECK_INSTANCES")->check(CLI::Range(1ull, 1ull << 40));
  cmd.add_option("--op-words", b.op_words, "words written and read per operation-level repetition")
      ->envname("VMMCHECK_OP_WORDS")->check(CLI::Range(1024ull, 1ull << 30));
  cmd.add_option("--seed", b.seed, "seed for placements and values")->envname("VMMCHECK_SEED");
  cmd.add_flag("--stress", b.stress, "memory stress before every litmus round")->envname("VMMCHECK_STRESS");
  cmd.add_option("--device", o.device, "CUDA device index")->envname("VMMCHECK_DEVICE")->check(CLI::NonNegativeNumber);
}

}  // namespace

int run_app(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  CLI::App app{"vmmcheck: conformance harness for CUDA virtual memory management and virtual-alias ordering"};
  app.set_version_flag("--version", std::string(VMMCHECK_VERSION) + " (git " + VMMCHECK_GIT_SHA + ")");
  app.require_subcommand(1);

  CLI::App* list = app.add_subcommand("list", "list the cases (no GPU needed)");
  add_common(*list, o);
  add_json(*list, o, "print the list as JSON (to FILE, or stdout)");

  CLI::App* run_cmd = app.add_subcommand("run", "run the cases on the local GPU");
  add_common(*run_cmd, o);
  add_json(*run_cmd, o, "write JSON results to FILE, updated after every case");
  add_budget(*run_cmd, o);

  CLI::App* explain_cmd = app.add_subcommand("explain", "explain cases: rule, citation, snippet, expectation, what hardware did");
  add_common(*explain_cmd, o);
  explain_cmd->add_option("case", o.names, "dotted case names (default: every case the filter selects)");
  explain_cmd->add_option("--results", o.results, "a JSON results file to show observations from")->envname("VMMCHECK_RESULTS");

  CLI::App* probe_cmd = app.add_subcommand("probe", "print driver, runtime and per-device VMM capabilities");
  add_json(*probe_cmd, o, "print the probe as JSON (to FILE, or stdout)");
  probe_cmd->add_flag("--allow-multicast", o.allow_multicast, "opt in to multicast cases (the gate still applies)")
      ->envname("VMMCHECK_ALLOW_MULTICAST");

  std::vector<std::string> argv(args.rbegin(), args.rend() - (args.empty() ? 0 : 1));
  try {
    app.parse(argv);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << app.version() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << "vmmcheck: " << e.what() << "\n";
    if (!app.get_subcommands().empty()) err << "run 'vmmcheck " << app.get_subcommands().front()->get_name() << " --help' for usage\n";
    else err << "run 'vmmcheck --help' for usage\n";
    return kExitUsage;
  }
  o.json_given = false;
  for (CLI::App* sub : app.get_subcommands())
    if (CLI::Option* opt = sub->get_option_no_throw("--json")) o.json_given = opt->count() > 0 || !o.json.empty();

  try {
    if (list->parsed()) return cmd_list(o, out);
    if (explain_cmd->parsed()) return cmd_explain(o, out);
    if (probe_cmd->parsed()) return cmd_probe(o, out);
    return cmd_run(o, out, err);
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
