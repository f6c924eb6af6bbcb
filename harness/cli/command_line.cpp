#include "cli/command_line.hpp"

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "cli/version.hpp"

namespace vmmcheck::cli {
namespace {

// Adds the options every subcommand shares; each has a VMMCHECK_* environment twin.
void add_common(CLI::App& cmd, Options& o) {
  // One value per --cases: otherwise `explain --cases DIR NAME` would read NAME as a second folder.
  cmd.add_option("--cases", o.cases, "case table file or folder, repeatable (default: the shipped cases/)")
      ->allow_extra_args(false)
      ->envname("VMMCHECK_CASES");
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
  cmd.add_option("--device", o.device, "CUDA device index")->envname("VMMCHECK_DEVICE")->check(CLI::NonNegativeNumber);
}

// Stress of the in-kernel cases: a preset, or a params file written by `vmmcheck tune`.
void add_stress(CLI::App& cmd, Options& o) {
  CLI::Option* preset =
      cmd.add_flag("--stress", o.stress, "pre-stress: 4 scratch accesses per thread before every litmus round")
          ->envname("VMMCHECK_STRESS");
  cmd.add_option("--stress-params", o.stress_params, "stress knobs from a params file written by 'vmmcheck tune'")
      ->envname("VMMCHECK_STRESS_PARAMS")
      ->check(CLI::ExistingFile)
      ->excludes(preset);
}

void add_isolation(CLI::App& cmd, Options& o) {
  cmd.add_flag("--isolate", o.isolate,
               "run every case in a child process (cases that may fault or hang always are)")
      ->envname("VMMCHECK_ISOLATE");
  cmd.add_option("--timeout", o.timeout_s, "seconds an isolated case may take before it is killed (Timeout)")
      ->envname("VMMCHECK_TIMEOUT")->check(CLI::Range(0.1, 86400.0));
  cmd.add_option("--resume", o.resume, "a results file of an interrupted run: its cases are kept, not run again")
      ->envname("VMMCHECK_RESUME");
}

}  // namespace

int parse_command_line(const std::vector<std::string>& args, Options& o, std::ostream& out, std::ostream& err) {
  CLI::App app{"vmmcheck: conformance harness for CUDA virtual memory management and virtual-alias ordering",
               "vmmcheck"};
  app.set_version_flag("--version", std::string(VMMCHECK_VERSION) + " (git " + VMMCHECK_GIT_SHA + ")");
  app.require_subcommand(1);

  CLI::App* list = app.add_subcommand("list", "list the cases (no GPU needed)");
  add_common(*list, o);
  add_json(*list, o, "print the list as JSON (to FILE, or stdout)");
  list->add_flag("--here", o.here,
                 "say for each case whether it can run on this machine, and why not (the support stage; needs no "
                 "GPU to answer 'no')")
      ->envname("VMMCHECK_HERE");

  CLI::App* run_cmd = app.add_subcommand("run", "run the cases on the local GPU");
  add_common(*run_cmd, o);
  add_json(*run_cmd, o, "write JSON results to FILE, updated after every case");
  add_budget(*run_cmd, o);
  add_stress(*run_cmd, o);
  add_isolation(*run_cmd, o);
  // A mutant switched on for this run (run/kit/mutants.hpp); for selftest, so not in --help.
  run_cmd->add_option("--mutant", o.mutant, "")->group("");
  run_cmd->add_flag("--verbose,-v", o.verbose, "list every case, also those skipped because there is no GPU")
      ->envname("VMMCHECK_VERBOSE");
  run_cmd->add_flag("--allow-multicast", o.allow_multicast,
                    "opt in to the multicast cases (the gate still refuses without device support or where the site switched NVLink multicast off)")
      ->envname("VMMCHECK_ALLOW_MULTICAST");
  run_cmd->add_flag("--mpi", o.mpi,
                    "under mpirun: rank 0 runs the cases and writes the results; rank 1 (another GPU where there "
                    "is one) is the importing process of ipc.* and fabric.* (docs/design.md, \"Processes\")");
  run_cmd->add_flag("--strict", o.strict,
                    "fail the run on warnings too (a `model` case's weak outcome; a forbidden call the driver accepted)")
      ->envname("VMMCHECK_STRICT");
  run_cmd->add_option("--baseline", o.baseline,
                      "expected results (ci/expectations/<gpu>-<driver>-fails.txt; the -flakes.txt and -skips.txt "
                      "beside it too): listed results become ExpectedFail, Flake or Skip")
      ->envname("VMMCHECK_BASELINE")
      ->check(CLI::ExistingFile);
  run_cmd->add_option("--litmus", o.litmus,
                      "run these litmus files or folders (.test) instead of the case tables and the shipped cases/litmus")
      ->envname("VMMCHECK_LITMUS");
  run_cmd->add_flag("!--no-power", o.power,
                    "do not run the controls that show each required or fault case can fail on this GPU")
      ->envname("VMMCHECK_NO_POWER");

  CLI::App* tune_cmd = app.add_subcommand(
      "tune", "search the stress knobs for the most weak outcomes per GPU second on the controls; write a params file");
  add_common(*tune_cmd, o);
  add_budget(*tune_cmd, o);
  tune_cmd->add_option("--trials", o.tune_trials, "random draws (the first is no stress)")
      ->envname("VMMCHECK_TUNE_TRIALS")->check(CLI::Range(1u, 100000u));
  tune_cmd->add_option("--seconds", o.tune_seconds, "start no trial after this many seconds")
      ->envname("VMMCHECK_TUNE_SECONDS")->check(CLI::Range(1.0, 86400.0));
  tune_cmd->add_option("--out", o.tune_out, "the params file to write (after every trial)")->envname("VMMCHECK_TUNE_OUT");

  CLI::App* selftest_cmd = app.add_subcommand(
      "selftest", "mutation self-test: run the suite with each ordering mechanism removed; every mutant must be caught");
  add_common(*selftest_cmd, o);
  add_json(*selftest_cmd, o, "write the per-mutant findings as JSON to FILE");
  add_budget(*selftest_cmd, o);
  add_stress(*selftest_cmd, o);
  selftest_cmd->add_option("--timeout", o.timeout_s, "seconds an isolated case may take before it is killed")
      ->envname("VMMCHECK_TIMEOUT")->check(CLI::Range(0.1, 86400.0));
  selftest_cmd->add_option("--mutant", o.mutants, "only these mutants (repeatable; default: all)")->allow_extra_args(false);
  selftest_cmd->add_flag("--verbose,-v", o.verbose, "list every case that caught each mutant");

  CLI::App* model_cmd = app.add_subcommand(
      "model", "decide every row of litmus files with the PTX proxy model (no GPU); exit 1 if a row's permit/assert disagrees");
  model_cmd->add_option("files", o.litmus, "litmus files (.test) or folders of them")->required();
  add_json(*model_cmd, o, "print the verdicts as JSON (to FILE, or stdout)");
  model_cmd->add_flag("--verbose,-v", o.verbose, "show every row's witness execution or the axioms that rule it out");
  model_cmd->add_option("--kernels", o.kernels_dir,
                        "write the CUDA source run --litmus generates for each row into DIR (with litmus_abi.h), to read "
                        "or to compile with nvcc");

  CLI::App* bench_cmd = app.add_subcommand(
      "bench", "time the VMM calls, growing a buffer, and reaching memory through aliases (docs/bench.md)");
  bench_cmd->add_option("--filter", o.filter, "comma-separated globs over benchmark names (vmm.map, grow.*); -GLOB excludes")
      ->envname("VMMCHECK_FILTER");
  add_json(*bench_cmd, o, "write the rows as JSON to FILE, rewritten after every row (with rounds: every round)");
  bench_cmd->add_option("--device", o.device, "CUDA device index")->envname("VMMCHECK_DEVICE")->check(CLI::NonNegativeNumber);
  CLI::Option* quick = bench_cmd->add_flag("--quick", o.bench.quick, "fewer sizes and samples: a smoke run of seconds")
                           ->envname("VMMCHECK_BENCH_QUICK");
  bench_cmd->add_option("--warmup", o.bench.policy.warmup, "untimed samples before each point")
      ->check(CLI::Range(0u, 1000u));
  bench_cmd->add_option("--min-samples", o.bench.policy.min_samples, "samples per point at least")
      ->check(CLI::Range(1u, 1000000u));
  bench_cmd->add_option("--max-samples", o.bench.policy.max_samples, "samples per point at most")
      ->check(CLI::Range(1u, 1000000u));
  bench_cmd->add_option("--seconds", o.bench.policy.seconds, "time per point, after warm-up, once min-samples are in")
      ->check(CLI::Range(0.0, 3600.0));
  bench_cmd->add_option("--confidence", o.bench.confidence, "of the percentiles' intervals")->check(CLI::Range(0.5, 0.999));
  bench_cmd->add_option("--rounds", o.bench.rounds, "rounds, each in a process of its own, their samples pooled (default 3, 1 with --quick)")
      ->check(CLI::Range(1u, 100u));
  bench_cmd->add_option("--round", o.bench.round, "")->group("");  // a parent's round k (internal)
  bench_cmd->add_option("--max-size", o.bench.max_size, "the largest allocation, e.g. 8GiB (default 64GiB, 512MiB with --quick)")
      ->transform(CLI::AsSizeValue(false));

  CLI::App* explain_cmd = app.add_subcommand("explain", "explain cases: rule, citation, snippet, expectation, what hardware did");
  add_common(*explain_cmd, o);
  explain_cmd->add_option("case", o.names, "dotted case names (default: every case the filter selects)");
  explain_cmd->add_option("--results", o.results, "a JSON results file to show observations from")->envname("VMMCHECK_RESULTS");
  explain_cmd->add_option("--litmus", o.litmus, "litmus files or folders whose rows litmus.<row> names (default: cases/litmus)")
      ->allow_extra_args(false);

  CLI::App* probe_cmd = app.add_subcommand("probe", "print driver, runtime and per-device VMM capabilities");
  add_json(*probe_cmd, o, "print the probe as JSON (to FILE, or stdout)");
  probe_cmd->add_flag("--allow-multicast", o.allow_multicast, "opt in to multicast cases (the gate still applies)")
      ->envname("VMMCHECK_ALLOW_MULTICAST");

  // The child side of isolation; not for people, so not in --help.
  CLI::App* child = app.add_subcommand("isolated-case", "")->group("");
  child->add_option("--spec", o.spec, "what to run (JSON)")->required();
  // The importing side of the ipc.* and fabric.* cases (harness/run/execution/peer_server.hpp); not for people either.
  CLI::App* ipc_peer = app.add_subcommand("ipc-peer", "")->group("");
  ipc_peer->add_option("--device", o.device, "the CUDA device to import on")->required();

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

  if (list->parsed()) o.command = Command::List;
  else if (explain_cmd->parsed()) o.command = Command::Explain;
  else if (probe_cmd->parsed()) o.command = Command::Probe;
  else if (tune_cmd->parsed()) {
    o.command = Command::Tune;
    // Per case per trial, unless given: a search measures many draws, a run certifies one.
    if (tune_cmd->get_option("--instances")->count() == 0) o.budget.instances = 4'000'000;
    if (tune_cmd->get_option("--iterations")->count() == 0) o.budget.iterations = 2;
  }
  else if (selftest_cmd->parsed()) o.command = Command::Selftest;
  else if (model_cmd->parsed()) o.command = Command::Model;
  else if (bench_cmd->parsed()) {
    o.command = Command::Bench;
    // --quick sets the policy's defaults; a policy flag given beside it still wins.
    const bench::Settings given = o.bench;
    o.bench = bench::default_settings(quick->count() > 0 || given.quick);
    o.bench.confidence = given.confidence;
    o.bench.max_size = given.max_size;
    o.bench.round = given.round;
    if (bench_cmd->get_option("--rounds")->count()) o.bench.rounds = given.rounds;
    bench::Policy& p = o.bench.policy;
    if (bench_cmd->get_option("--warmup")->count()) p.warmup = given.policy.warmup;
    if (bench_cmd->get_option("--min-samples")->count()) p.min_samples = given.policy.min_samples;
    if (bench_cmd->get_option("--max-samples")->count()) p.max_samples = given.policy.max_samples;
    if (bench_cmd->get_option("--seconds")->count()) p.seconds = given.policy.seconds;
    if (p.max_samples < p.min_samples) p.max_samples = p.min_samples;
    o.bench.filter = o.filter;
    o.bench.device = o.device;
  }
  else if (child->parsed()) o.command = Command::IsolatedCase;
  else if (ipc_peer->parsed()) o.command = Command::IpcPeer;
  else o.command = Command::Run;
  return -1;
}

}  // namespace vmmcheck::cli
