#include "cli/command_line.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include <CLI/CLI.hpp>

#include <cctype>
#include <functional>
#include <memory>

#include "cli/app.hpp"
#include "cli/version.hpp"
#include "common/text.hpp"

namespace vmmcheck::cli {
namespace {

// The environment twin of every flag (docs/design.md, "Environment twins"): run's flags have the plain
// names (run --filter: VMMCHECK_FILTER), another command's carry the command's name (list --filter:
// VMMCHECK_LIST_FILTER; bench --json: VMMCHECK_BENCH_JSON). So a variable exported for one command never
// reaches another: a CI job that exports VMMCHECK_JSON for `run` and then calls `list` keeps its results.
// Hidden options (a parent's word to its child) and positional arguments have none.
std::string twin_of(const CLI::App& cmd, const std::string& flag) {
  std::string name = "VMMCHECK_";
  if (cmd.get_name() != "run") name += cmd.get_name() + "_";
  name += flag;
  for (char& c : name) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

void add_twins(CLI::App& cmd) {
  for (CLI::Option* opt : cmd.get_options()) {
    if (opt->get_lnames().empty() || opt->get_group().empty() || opt->get_lnames()[0] == "help") continue;
    opt->envname(twin_of(cmd, opt->get_lnames()[0]));
  }
}

// A count flag that takes no negative number: CLI11 reads "-5" into an unsigned as 2^64-5.
const CLI::Validator kNotNegative = CLI::Validator(
    [](std::string& text) {
      const auto first = text.find_first_not_of(" \t");
      return first != std::string::npos && text[first] == '-' ? std::string("must not be negative") : std::string();
    },
    "NONNEGATIVE");

// A number flag that takes a finite number only: CLI::Range lets NaN through (no comparison with it holds).
const CLI::Validator kFinite = CLI::Validator(
    [](std::string& text) {
      double v = 0;
      return CLI::detail::lexical_cast(text, v) && !std::isfinite(v) ? std::string("must be a finite number, not " + text)
                                                                     : std::string();
    },
    "FINITE");

// An unsigned 64-bit flag whose text fits: CLI11 would clamp 99999999999999999999999999 without a word.
const CLI::Validator kFitsUint64 = CLI::Validator(
    [](std::string& text) {
      const auto first = text.find_first_not_of(" \t");
      if (first == std::string::npos) return std::string();
      unsigned long long v = 0;
      const char* end = text.data() + text.size();
      const auto [at, ec] = std::from_chars(text.data() + first, end, v);
      return ec == std::errc::result_out_of_range ? std::string("must be at most 18446744073709551615") : std::string();
    },
    "UINT64");

// --filter: comma-separated globs. Given, it holds one at least: "," or " " (a script's empty variable
// between commas) would otherwise select everything, a targeted run turned into the whole suite.
const CLI::Validator kGlobs = CLI::Validator(
    [](std::string& text) {
      if (text.empty() || text.find_first_not_of(", \t") != std::string::npos) return std::string();
      return std::string("holds no glob ('" + text + "'); leave --filter out to select everything");
    },
    "GLOBS");

// A path or K/N that is given at all is not empty: '' (a script's unset variable) would read as not
// given -- a fresh run for --resume '', every shard's whole selection for --shard ''.
const CLI::Validator kNotEmpty = CLI::Validator(
    [](std::string& text) { return text.empty() ? std::string("must not be empty (leave the option out instead)") : std::string(); },
    "NONEMPTY");

// The CUDA device index: a GPU is numbered from 0, and no machine has thousands.
const CLI::Validator kDeviceIndex = CLI::Range(0, 1023);

// Adds the options every subcommand shares.
void add_common(CLI::App& cmd, Options& o) {
  // One value per --cases: otherwise `explain --cases DIR NAME` would read NAME as a second folder.
  cmd.add_option("--cases", o.cases, "case table file or folder, repeatable (default: the shipped cases/)")
      ->allow_extra_args(false);
  cmd.add_option("--filter", o.filter, "comma-separated globs over dotted case names; -GLOB excludes")->check(kGlobs);
}

// --caselist and --shard: what run runs and list lists, beside --filter (model/select.hpp).
void add_selection(CLI::App& cmd, Options& o) {
  cmd.add_option("--caselist", o.caselist,
                 "only the cases and litmus rows a line of FILE names (a name or glob a line, '#' comments)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--shard", o.shard, "only part K of N of the selection: a stable split by name (K/N, e.g. 2/3)")->check(kNotEmpty);
}

void add_json(CLI::App& cmd, Options& o, const std::string& what) {
  cmd.add_option("--json", o.json, what)->expected(0, 1);
}

void add_budget(CLI::App& cmd, Options& o) {
  run::Budget& b = o.budget;
  cmd.add_option("--iterations", b.iterations, "launches per in-kernel case, repetitions per operation case")->check(CLI::Range(1u, 1000000u));
  cmd.add_option("--instances", b.instances, "litmus instances per in-kernel case and litmus row (at least)")->check(CLI::Range(1ull, 1ull << 40));
  cmd.add_option("--row-launches", b.row_launches, "launches per litmus row, each a fresh placement")->check(CLI::Range(1u, 1000000u));
  cmd.add_option("--op-words", b.op_words, "words written and read per operation-level repetition")->check(CLI::Range(1024ull, 1ull << 30));
  cmd.add_option("--seed", b.seed, "seed for placements and values")->check(kNotNegative)->check(kFitsUint64);
  cmd.add_option("--device", o.device, "CUDA device index")->check(kDeviceIndex);
}

// Stress of the in-kernel cases: a preset, or a params file written by `vmmcheck tune`.
void add_stress(CLI::App& cmd, Options& o) {
  CLI::Option* preset =
      cmd.add_flag("--stress", o.stress, "pre-stress: 4 scratch accesses per thread before every litmus round");
  cmd.add_option("--stress-params", o.stress_params, "stress knobs from a params file written by 'vmmcheck tune'")
      ->check(CLI::ExistingFile)
      ->excludes(preset);
}

void add_isolation(CLI::App& cmd, Options& o) {
  cmd.add_flag("--isolate", o.isolate,
               "run every case in a child process (cases that may fault or hang always are)");
  cmd.add_option("--timeout", o.timeout_s, "seconds an isolated case may take before it is killed (Timeout)")->check(kFinite)->check(CLI::Range(0.1, 86400.0));
  cmd.add_option("--resume", o.resume, "a results file of an interrupted run: its cases are kept, not run again")->check(kNotEmpty);
}

// Every subcommand and flag, bound to `o`.
std::unique_ptr<CLI::App> build_app(Options& o) {
  auto owned = std::make_unique<CLI::App>(
      "vmmcheck: conformance harness for CUDA virtual memory management and virtual-alias ordering", "vmmcheck");
  CLI::App& app = *owned;
  app.set_version_flag("--version", std::string(VMMCHECK_VERSION) + " (git " + VMMCHECK_GIT_SHA + ")");
  app.require_subcommand(1);
#ifdef VMMCHECK_CPU_ONLY
  // The CPU-only build (-DVMMCHECK_GPU=OFF): every command parses as in the GPU build, and the GPU ones
  // say they need it (cli/gpu_commands_off.cpp).
  app.footer("Built with -DVMMCHECK_GPU=OFF: list, explain and model run here; run, probe, tune, selftest, toolchain, "
             "bench and list --here need the GPU build.");
#endif

  CLI::App* list = app.add_subcommand("list", "list the cases (no GPU needed)");
  add_common(*list, o);
  add_selection(*list, o);
  add_json(*list, o, "print the list as JSON (to FILE, or stdout)");
  list->add_flag("--here", o.here,
                 "say for each case whether it can run on this machine, and why not (the support stage; needs no "
                 "GPU to answer 'no')");
  list->add_option("--litmus", o.litmus,
                   "list the rows of these litmus files or folders (.test, or herd-style .litmus) instead of the case tables "
                   "and the shipped cases/litmus");

  CLI::App* run_cmd = app.add_subcommand("run", "run the cases on the local GPU");
  add_common(*run_cmd, o);
  add_selection(*run_cmd, o);
  add_json(*run_cmd, o, "write JSON results to FILE, updated after every case");
  add_budget(*run_cmd, o);
  add_stress(*run_cmd, o);
  add_isolation(*run_cmd, o);
  // A mutant switched on for this run (run/kit/mutants.hpp); for selftest, so not in --help.
  run_cmd->add_option("--mutant", o.mutant, "")->group("");
  run_cmd->add_flag("--verbose,-v", o.verbose, "list every case, also those skipped because there is no GPU");
  run_cmd->add_flag("--allow-multicast", o.allow_multicast,
                    "opt in to the multicast cases (the gate still refuses without device support or where the site switched NVLink multicast off)");
  run_cmd->add_flag("--mpi", o.mpi,
                    "under mpirun: rank 0 runs the cases and writes the results; rank 1 (another GPU where there "
                    "is one) is the importing process of ipc.* and fabric.* (docs/design.md, \"Processes\")");
  run_cmd->add_flag("--strict", o.strict,
                    "fail the run on warnings too (a `model` case's weak outcome; a forbidden call the driver accepted)");
  run_cmd->add_option("--baseline", o.baseline,
                      "expected results (ci/expectations/<gpu>-<driver>-fails.txt; the -flakes.txt and -skips.txt "
                      "beside it too): listed results become ExpectedFail, Flake or Skip")
      ->check(CLI::ExistingFile);
  run_cmd->add_flag("--allow-unknown", o.allow_unknown,
                    "a baseline row naming no case is a warning, not an error (a baseline shared by versions)");
  run_cmd->add_option("--litmus", o.litmus,
                      "run these litmus files or folders (.test, or herd-style .litmus) instead of the case tables and the shipped cases/litmus");
  run_cmd->add_flag("!--no-power", o.power,
                    "do not run the controls that show each required or fault case can fail on this GPU");
  run_cmd->add_flag("--deep-power", o.deep_power,
                    "a litmus assert row none of whose controls showed its forbidden outcome gets a second round of "
                    "controls that take two orderings away, a strong access made weak among them (slow: docs/litmus.md, Power)");
  run_cmd->add_flag("--rerun-unoptimized", o.rerun_unoptimized,
                    "run a litmus row that shows a forbidden outcome again compiled with ptxas -O0 and say what it showed "
                    "(an experiment: the machine code decides the verdict, docs/toolchain.md)");

  CLI::App* tune_cmd = app.add_subcommand(
      "tune", "search the stress knobs for the most weak outcomes per GPU second on the controls; write a params file");
  add_common(*tune_cmd, o);
  add_budget(*tune_cmd, o);
  tune_cmd->add_option("--trials", o.tune_trials, "draws: the first no stress, the second contiguous words, then the --start files', then random ones, then the refinements")->check(CLI::Range(1u, 100000u));
  tune_cmd->add_option("--refine", o.tune_refine,
                       "of the trials, the last N each redraw one knob of the best draw so far (a local search; "
                       "default: a third of the trials; 0: random draws only)")
      ->check(CLI::Range(0u, 100000u));
  tune_cmd->add_option("--confirm", o.tune_confirm,
                       "after the trials, measure the K best draws again and keep the best of those second "
                       "measurements (the best of many noisy measurements overstates its draw; default 0: keep it)")
      ->check(CLI::Range(0u, 1000u));
  tune_cmd->add_option("--seconds", o.tune_seconds, "start no trial after this many seconds")->check(kFinite)->check(CLI::Range(1.0, 86400.0));
  tune_cmd->add_option("--out", o.tune_out, "the params file to write (after every trial)");
  tune_cmd->add_option("--per", o.tune_per,
                       "what a draw is scored by: weak outcomes per GPU second (gpu-second, the default: the most "
                       "evidence for the device time) or per instance (instance: the strongest kernel, as litmus "
                       "tools compare)")
      ->check(CLI::IsMember({"gpu-second", "instance"}));
  tune_cmd->add_option("--start", o.tune_start,
                       "params files (tune's) whose knobs are drawn right after the default and contiguous words: "
                       "earlier picks the search keeps unless a draw beats them (repeatable; they count among --trials)")
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  tune_cmd->add_flag("--each", o.tune_each,
                     "search each --litmus file on its own and write every file's best as per-row params (its rows "
                     "run under them with --stress-params; the file's own params stay the defaults)");
  tune_cmd->add_option("--litmus", o.litmus,
                       "tune on these litmus files or folders (.test, or herd-style .litmus) instead of the shipped cases/litmus: "
                       "their assert rows' controls and their permit rows are measured");

  CLI::App* selftest_cmd = app.add_subcommand(
      "selftest", "mutation self-test: run the suite with each ordering mechanism removed; every mutant must be caught");
  add_common(*selftest_cmd, o);
  add_json(*selftest_cmd, o, "write the per-mutant findings as JSON to FILE");
  add_budget(*selftest_cmd, o);
  add_stress(*selftest_cmd, o);
  selftest_cmd->add_option("--timeout", o.timeout_s, "seconds an isolated case may take before it is killed")->check(kFinite)->check(CLI::Range(0.1, 86400.0));
  selftest_cmd->add_option("--mutant", o.mutants, "only these mutants (repeatable; default: all)")->allow_extra_args(false);
  selftest_cmd->add_flag("--verbose,-v", o.verbose, "list every case that caught each mutant");

  CLI::App* model_cmd = app.add_subcommand(
      "model", "decide every row of litmus files with the PTX proxy model (no GPU); exit 1 if a row's permit/assert disagrees");
  model_cmd->add_option("files", o.litmus, "litmus files (.test, or herd-style .litmus) or folders of them")->required();
  add_json(*model_cmd, o, "print the verdicts as JSON (to FILE, or stdout)");
  model_cmd->add_flag("--verbose,-v", o.verbose, "show every row's witness execution or the axioms that rule it out");
  model_cmd->add_option("--kernels", o.kernels_dir,
                        "write the CUDA source run --litmus generates for each row into DIR (with litmus_abi.h), to read "
                        "or to compile with nvcc")->check(kNotEmpty);

  CLI::App* toolchain_cmd = app.add_subcommand(
      "toolchain",
      "check that the machine code of each litmus row's kernel keeps every memory operation and fence of its PTX, "
      "for each compiler and -O level (no GPU); exit 1 if any is lost, merged, weakened, reordered or elided");
  toolchain_cmd->add_option("files", o.litmus, "litmus files (.test, or herd-style .litmus) or folders of them")->required();
  toolchain_cmd->add_option("--filter", o.filter, "comma-separated globs over row names (alias_mp.*); -GLOB excludes")->check(kGlobs);
  add_json(*toolchain_cmd, o, "write every kernel's audit as JSON to FILE (or stdout)");
  toolchain_cmd->add_option("--ptxas", o.ptxas, "another ptxas binary to check (repeatable), besides NVRTC's and the toolkit's")
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  toolchain_cmd->add_flag("--no-toolkit-ptxas", o.no_toolkit_ptxas, "leave the toolkit's ptxas out");
  toolchain_cmd->add_flag("--no-nvrtc", o.no_nvrtc, "leave NVRTC's own ptxas out (the ptxas binaries only: a matrix of versions)");
  // Split here, not by CLI11's delimiter: that drops the empty items of '1,,2', and ',' alone then takes the
  // next argument (--filter) for a level.
  toolchain_cmd
      ->add_option_function<std::vector<std::string>>(
          "-O,--opt",
          [&o](const std::vector<std::string>& tokens) {
            o.ptxas_levels.clear();  // the default, 3, unless -O names it
            for (const std::string& token : tokens)
              for (std::size_t start = 0;;) {
                const std::size_t comma = token.find(',', start);
                const std::string item = token.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                if (item.size() != 1 || item[0] < '0' || item[0] > '3')
                  throw CLI::ValidationError("--opt", "'" + token + "': each level is 0, 1, 2 or 3, comma-separated");
                o.ptxas_levels.push_back(item[0] - '0');
                if (comma == std::string::npos) break;
                start = comma + 1;
              }
          },
          "ptxas -O levels, comma-separated (default 3, what run uses)")
      ->allow_extra_args(false);
  toolchain_cmd->add_option("--disassembler", o.disassembler, "the nvdisasm to use (default: the one found at build time, or on PATH)")
      ->check(CLI::ExistingFile);
  toolchain_cmd->add_option("--repro", o.repro_dir, "write a reproducer per finding into DIR (.cu, .ptx, SASS, commands)");
  toolchain_cmd->add_option("--arch", o.arch, "the SM to compile for (default 90)")->check(CLI::Range(50, 200));
  toolchain_cmd->add_flag("--verbose,-v", o.verbose, "list every kernel, also the intact ones");

  CLI::App* bench_cmd = app.add_subcommand(
      "bench", "time the VMM calls, growing a buffer, and reaching memory through aliases (docs/bench.md)");
  bench_cmd->add_option("--filter", o.filter, "comma-separated globs over benchmark names (vmm.map, grow.*); -GLOB excludes")->check(kGlobs);
  add_json(*bench_cmd, o, "write the rows as JSON to FILE, rewritten after every row (with rounds: every round)");
  bench_cmd->add_option("--device", o.device, "CUDA device index")->check(kDeviceIndex);
  bench_cmd->add_flag("--quick", o.bench.quick, "fewer sizes and samples: a smoke run of seconds");
  bench_cmd->add_option("--warmup", o.bench.policy.warmup, "untimed samples before each point")
      ->check(CLI::Range(0u, 1000u));
  bench_cmd->add_option("--min-samples", o.bench.policy.min_samples, "samples per point at least")
      ->check(CLI::Range(1u, 1000000u));
  bench_cmd->add_option("--max-samples", o.bench.policy.max_samples, "samples per point at most")
      ->check(CLI::Range(1u, 1000000u));
  bench_cmd->add_option("--seconds", o.bench.policy.seconds, "time per point, after warm-up, once min-samples are in")
      ->check(kFinite)->check(CLI::Range(0.0, 3600.0));
  bench_cmd->add_option("--confidence", o.bench.confidence, "of the percentiles' intervals")->check(kFinite)->check(CLI::Range(0.5, 0.999));
  bench_cmd->add_option("--rounds", o.bench.rounds, "rounds, each in a process of its own, their samples pooled (default 3, 1 with --quick)")
      ->check(CLI::Range(1u, 100u));
  bench_cmd->add_option("--round", o.bench.round, "")->group("");  // a parent's round k (internal)
  bench_cmd->add_option("--max-size", o.bench.max_size, "the largest allocation, e.g. 8GiB (default 64GiB, 512MiB with --quick)")
      ->check(kNotNegative)
      ->check(kFitsUint64)
      ->transform(CLI::AsSizeValue(false));

  CLI::App* explain_cmd = app.add_subcommand("explain", "explain cases: rule, citation, snippet, expectation, what hardware did");
  add_common(*explain_cmd, o);
  explain_cmd->add_option("case", o.names, "dotted case or litmus row names (default: every case and row the filter selects)");
  explain_cmd->add_option("--results", o.results, "a JSON results file to show observations from")->check(kNotEmpty);
  explain_cmd->add_option("--litmus", o.litmus, "litmus files or folders whose rows litmus.<row> (or a case a row stands for) names (default: cases/litmus)")
      ->allow_extra_args(false);

  CLI::App* probe_cmd = app.add_subcommand("probe", "print driver, runtime and per-device VMM capabilities");
  add_json(*probe_cmd, o, "print the probe as JSON (to FILE, or stdout)");
  probe_cmd->add_flag("--allow-multicast", o.allow_multicast, "opt in to multicast cases (the gate still applies)");

  // The child side of isolation; not for people, so not in --help.
  CLI::App* child = app.add_subcommand("isolated-case", "")->group("");
  child->add_option("--spec", o.spec, "what to run (JSON)")->required();
  // The importing side of the ipc.* and fabric.* cases (harness/run/execution/peer_server.hpp); not for people either.
  CLI::App* ipc_peer = app.add_subcommand("ipc-peer", "")->group("");
  ipc_peer->add_option("--device", o.device, "the CUDA device to import on")->required();

  for (CLI::App* sub : app.get_subcommands(std::function<bool(CLI::App*)>{})) {
    if (!sub->get_group().empty()) add_twins(*sub);
    // CLI11 reads the environment twins of every subcommand without a parse-complete callback, parsed or
    // not -- and the subcommands share Options' fields, so run's VMMCHECK_JSON would become list's --json.
    // With one, a subcommand reads its twins only when it is the one given.
    sub->parse_complete_callback([] {});
  }
  return owned;
}

}  // namespace

std::vector<std::string> twins_of(const std::string& command) {
  Options o;
  const std::unique_ptr<CLI::App> app = build_app(o);
  std::vector<std::string> names;
  for (const CLI::Option* opt : app->get_subcommand(command)->get_options())
    if (!opt->get_envname().empty()) names.push_back(opt->get_envname());
  return names;
}

int parse_command_line(const std::vector<std::string>& args, Options& o, std::ostream& out, std::ostream& err) {
  const std::unique_ptr<CLI::App> owned = build_app(o);
  CLI::App& app = *owned;
  CLI::App* const list = app.get_subcommand("list");
  CLI::App* const explain_cmd = app.get_subcommand("explain");
  CLI::App* const probe_cmd = app.get_subcommand("probe");
  CLI::App* const tune_cmd = app.get_subcommand("tune");
  CLI::App* const selftest_cmd = app.get_subcommand("selftest");
  CLI::App* const model_cmd = app.get_subcommand("model");
  CLI::App* const toolchain_cmd = app.get_subcommand("toolchain");
  CLI::App* const bench_cmd = app.get_subcommand("bench");
  CLI::App* const child = app.get_subcommand("isolated-case");
  CLI::App* const ipc_peer = app.get_subcommand("ipc-peer");

  std::vector<std::string> argv(args.rbegin(), args.rend() - (args.empty() ? 0 : 1));
  // A first word that is no command: said by name (CLI11 would only say a subcommand is required).
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-') {
    std::string commands;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->get_name() == args[1];
      if (!sub->get_group().empty()) commands += (commands.empty() ? "" : ", ") + sub->get_name();  // not internal ones
    }
    if (!known) {
      err << "vmmcheck: '" << one_printable_line(args[1], 80) << "' is not a command (" << commands << "; vmmcheck --help)\n";
      return kExitUsage;
    }
  }
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
    // One line, as every bad input gets: the problem, then where the usage is.
    const std::string help = app.get_subcommands().empty() ? "vmmcheck --help"
                                                           : "vmmcheck " + app.get_subcommands().front()->get_name() + " --help";
    err << "vmmcheck: " << one_printable_line(e.what()) << " (" << help << ")\n";
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
    // Per row per trial over the shipped rows, unless given: a search measures many draws, a run
    // certifies one. Not for a user's litmus files: a row's launches are the run's (--row-launches), so
    // fewer instances would be fewer rounds a launch, and a draw measured so need not keep its rate in the
    // run it is for (tuned at 4M, cuda-litmus's wrw+2w showed 0.67% in the search and 0.41% in a run at
    // the default budget).
    if (tune_cmd->get_option("--instances")->count() == 0 && o.litmus.empty()) o.budget.instances = 4'000'000;
  }
  else if (selftest_cmd->parsed()) o.command = Command::Selftest;
  else if (model_cmd->parsed()) o.command = Command::Model;
  else if (toolchain_cmd->parsed()) o.command = Command::Toolchain;
  else if (bench_cmd->parsed()) {
    o.command = Command::Bench;
    // --quick sets the policy's defaults; a policy flag given beside it still wins.
    const bench::Settings given = o.bench;
    o.bench = bench::default_settings(bench_cmd->get_option("--quick")->count() > 0 || given.quick);
    o.bench.confidence = given.confidence;
    o.bench.max_size = given.max_size;
    o.bench.round = given.round;
    if (bench_cmd->get_option("--rounds")->count()) o.bench.rounds = given.rounds;
    bench::Policy& p = o.bench.policy;
    if (bench_cmd->get_option("--warmup")->count()) p.warmup = given.policy.warmup;
    if (bench_cmd->get_option("--min-samples")->count()) p.min_samples = given.policy.min_samples;
    if (bench_cmd->get_option("--max-samples")->count()) p.max_samples = given.policy.max_samples;
    if (bench_cmd->get_option("--seconds")->count()) p.seconds = given.policy.seconds;
    if (bench_cmd->get_option("--min-samples")->count() && bench_cmd->get_option("--max-samples")->count() &&
        p.max_samples < p.min_samples) {
      err << "vmmcheck: --min-samples " << p.min_samples << " is more than --max-samples " << p.max_samples
          << " (vmmcheck bench --help)\n";
      return kExitUsage;
    }
    if (p.max_samples < p.min_samples) p.max_samples = p.min_samples;  // one given, past the other's default
    o.bench.filter = o.filter;
    o.bench.device = o.device;
  }
  else if (child->parsed()) o.command = Command::IsolatedCase;
  else if (ipc_peer->parsed()) o.command = Command::IpcPeer;
  else o.command = Command::Run;
  return -1;
}

}  // namespace vmmcheck::cli
