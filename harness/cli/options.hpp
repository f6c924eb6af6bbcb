#pragma once
// Everything the command line sets. Each flag has an environment twin of its command's (command_line.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/settings.hpp"
#include "run/records/budget.hpp"

namespace vmmcheck::cli {

enum class Command { List, Run, Explain, Probe, Tune, Selftest, Model, Toolchain, Bench, IsolatedCase, IpcPeer };

struct Options {
  Command command = Command::Run;
  std::vector<std::string> cases;  // files or folders of case tables; empty: the shipped tables
  std::string filter;       // comma-separated globs over dotted names
  std::string caselist;     // run, list: a case list file (model/caselist.hpp)
  std::string shard;        // run, list: "K/N" (model/shard.hpp)
  std::string json;         // results/probe/list JSON file; "-" for stdout
  bool json_given = false;
  int device = 0;
  bool allow_multicast = false;
  std::string results;      // explain: a results file to show what hardware did
  std::vector<std::string> names;  // explain: case names
  run::Budget budget;
  bool stress = false;        // run, tune, selftest: the --stress preset
  std::string stress_params;  // run, selftest: a params file (from tune) for budget.stress
  std::string mutant;         // run: a mutant to switch on (hidden; selftest's children use the environment)
  bool isolate = false;     // run: every case in a child process
  bool mpi = false;         // run: under mpirun; rank 1 is the importing process of ipc.* and fabric.*
  bool verbose = false;     // run: list every case, also those skipped because there is no GPU
  bool here = false;        // list: whether each case can run on this machine, and why not
  bool power = true;        // run: measure each required or fault case's control (docs/design.md, Power)
  bool deep_power = false;         // run: a second round of two-change controls for litmus rows none of whose controls showed it
  bool rerun_unoptimized = false;  // run: a litmus row with a forbidden outcome again at ptxas -O0 (an experiment)
  bool strict = false;      // run: a Warning fails the run
  std::string baseline;     // run: an expectations fails file (run/records/baseline.hpp)
  bool allow_unknown = false;  // run: a baseline row naming no case warns instead of failing
  double timeout_s = 120;   // run: hard limit per isolated case
  std::string resume;       // run: a results file whose cases are not run again
  bool rank_file = false;   // run --mpi: this --json is a rank's own file for rank 0, written even when nothing ran
  std::string spec;         // isolated-case: what the parent asks the child to run
  std::uint32_t tune_trials = 24;          // tune: random draws, the first being no stress
  std::optional<std::uint32_t> tune_refine;  // tune: trials that refine the best draw (unset: a third of them)
  std::uint32_t tune_confirm = 0;          // tune: the best draws measured again, the best of those kept
  double tune_seconds = 600;               // tune: no new trial after this many seconds
  std::string tune_per = "gpu-second";     // tune: weak outcomes per "gpu-second" or per "instance"
  std::vector<std::string> tune_start;     // tune: params files whose knobs are drawn after the fixed two
  bool tune_each = false;                  // tune: one search per litmus file, written as per-row params
  std::string tune_out = "stress-params.json";
  std::vector<std::string> mutants;        // selftest: which (default: all)
  // model: the litmus files or folders to decide; run --litmus: the ones to run instead of the shipped
  // cases/litmus (and then no case table)
  std::vector<std::string> litmus;
  std::string kernels_dir;  // model: write each row's generated kernel source here (with litmus_abi.h)
  // toolchain (docs/toolchain.md): the compilers, levels and disassembler, and where findings go
  std::vector<std::string> ptxas;          // more ptxas binaries
  bool no_toolkit_ptxas = false;
  bool no_nvrtc = false;
  std::vector<int> ptxas_levels{3};
  std::string disassembler;
  std::string repro_dir;                   // a reproducer per finding
  int arch = 90;
  bench::Settings bench;    // bench: --quick, the sampling policy, --max-size (filter and device: above)
};

}  // namespace vmmcheck::cli
