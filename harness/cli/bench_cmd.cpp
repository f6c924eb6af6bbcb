#include "cli/bench_cmd.hpp"

#include <cuda_runtime_api.h>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "bench/bench.hpp"
#include "bench/stats.hpp"
#include "cli/app.hpp"
#include "cli/cases.hpp"
#include "cli/version.hpp"
#include "common/error.hpp"
#include "common/scratch_dir.hpp"
#include "device/machine.hpp"
#include "ipc/child_process.hpp"
#include "run/records/output_file.hpp"
#include "run/records/report_json.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::cli {
namespace {

// One console line per row: what it is, and its median with the interval, or why it did not run.
std::string row_line(std::size_t index, const bench::Row& r, double confidence, double seconds) {
  std::ostringstream line;
  line << "[" << std::setw(3) << index << "] " << std::left << std::setw(58) << r.id() << std::right << " ";
  if (r.status != "ok" || r.values.empty()) {
    line << (r.status == "ok" ? "error" : r.status) << ": " << r.why;
    return line.str();
  }
  const bench::Summary s = bench::summarize(r.values, confidence);
  const auto num = [](double v) {
    std::ostringstream o;
    o << std::setprecision(v >= 100 ? 0 : 2) << std::fixed << v;
    return o.str();
  };
  line << "p50 " << num(s.p50) << " " << r.unit << " [" << (s.ci50.lower ? num(*s.ci50.lower) : "-") << ", "
       << (s.ci50.upper ? num(*s.ci50.upper) : "-") << "]  p99 " << num(s.p99) << "  n=" << s.n << "  ("
       << std::setprecision(1) << std::fixed << seconds << " s)";
  return line.str();
}

// The arguments of round k's process: this run's settings, spelled out, writing to `json`.
std::vector<std::string> round_args(const Options& o, unsigned k, const std::string& json) {
  const bench::Settings& s = o.bench;
  std::vector<std::string> a{self_program(), "bench", "--rounds", "1", "--round", std::to_string(k), "--json", json,
                             "--device", std::to_string(o.device), "--warmup", std::to_string(s.policy.warmup),
                             "--min-samples", std::to_string(s.policy.min_samples),
                             "--max-samples", std::to_string(s.policy.max_samples)};
  std::ostringstream number;
  number << std::setprecision(17) << s.policy.seconds;
  a.insert(a.end(), {"--seconds", number.str()});
  number.str("");
  number << s.confidence;
  a.insert(a.end(), {"--confidence", number.str()});
  if (s.quick) a.push_back("--quick");
  if (s.max_size) a.insert(a.end(), {"--max-size", std::to_string(s.max_size)});
  if (!o.filter.empty()) a.insert(a.end(), {"--filter", o.filter});
  return a;
}

// Runs the rounds one after another, each a process of its own (its rows print as it measures them),
// and pools their rows; the JSON is rewritten after every round.
// How a round's process ended, in words.
std::string ending(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return ipc::signal_name(WTERMSIG(status));
  return "wait status " + std::to_string(status);
}

int run_rounds(const Options& o, std::ostream& out) {
  const bench::Settings& s = o.bench;
  const ScratchDir folder("bench");  // the rounds' files, gone with the run
  std::vector<std::vector<bench::Json>> rounds;
  bench::Json context;
  std::vector<bench::Json> pooled;
  unsigned failed_rounds = 0;
  const auto write = [&](const std::string& finished) {
    if (o.json_given && !rounds.empty()) run::write_results(o.json, bench::document(context, s, pooled, finished));
  };
  for (unsigned k = 0; k < s.rounds; ++k) {
    const std::string json = folder.file("round-" + std::to_string(k) + ".json");
    out << "round " << k + 1 << " of " << s.rounds << " (a process of its own)\n" << std::flush;
    std::string error;
    const pid_t child = ipc::spawn_in_group(round_args(o, k, json), {{STDOUT_FILENO, STDOUT_FILENO}, {STDERR_FILENO, STDERR_FILENO}}, error);
    if (child < 0) throw std::runtime_error("cannot start round " + std::to_string(k + 1) + ": " + error);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    // A usage error is the same in every round: say it once, as the command's own.
    if (WIFEXITED(status) && WEXITSTATUS(status) == kExitUsage) return kExitUsage;
    std::ifstream in(json);
    const bench::Json doc = in ? bench::Json::parse(in, nullptr, false) : bench::Json();
    if (doc.is_null() || doc.is_discarded() || !doc.contains("results")) {
      ++failed_rounds;
      out << "round " << k + 1 << " left no rows (" << ending(status) << ")\n";
      continue;
    }
    // Exit code 1 with rows is rows that failed: they are in the rows; anything else is a round that broke.
    const bool ended = WIFEXITED(status) && (WEXITSTATUS(status) == kExitOk || WEXITSTATUS(status) == kExitFailure);
    if (!ended) {
      ++failed_rounds;
      out << "round " << k + 1 << " ended with " << ending(status) << "\n";
    }
    if (context.is_null()) context = doc.at("context");
    rounds.push_back(doc.at("results").get<std::vector<bench::Json>>());
    pooled = bench::pool_rounds(rounds, s.confidence);
    write("");
  }
  if (rounds.empty()) throw std::runtime_error("no round of the bench left rows (their output is above)");
  write(run::utc_now_iso8601());
  out << "pooled over " << rounds.size() << " round" << (rounds.size() == 1 ? "" : "s") << ":\n";
  std::size_t failed = 0;
  for (std::size_t i = 0; i < pooled.size(); ++i) {
    const bench::Row r = bench::row_from_json(pooled[i]);
    failed += r.status == "error";
    out << row_line(i + 1, r, s.confidence, 0) << "\n";
  }
  out << pooled.size() << " rows" << (failed ? ", " + std::to_string(failed) + " failed" : "")
      << (failed_rounds ? ", " + std::to_string(failed_rounds) + " round(s) did not end cleanly" : "")
      << (o.json_given ? "; " + o.json : "") << "\n";
  return failed || failed_rounds ? kExitFailure : kExitOk;
}

}  // namespace

int cmd_bench(const Options& o, std::ostream& out) {
  if (o.json_given && (o.json.empty() || o.json == "-"))
    throw InputError("bench --json needs a FILE (rows are written as they are measured)");
  if (o.json_given) run::claim_output(o.json, "bench");
  if (!bench::selects_any(o.filter)) throw InputError("no benchmark matches the filter '" + o.filter + "' (" + bench::group_globs() + ")");
  // A round dies with the run that started it (it runs in a process group of its own, out of reach of
  // the terminal's Ctrl-C).
  if (o.bench.round >= 0) prctl(PR_SET_PDEATHSIG, SIGKILL);
  const device::Machine machine = device::describe_machine();  // checked here, before any round starts
  if (machine.devices.empty()) throw NotSupportedError("bench needs a GPU: " + machine.no_gpu_reason);
  if (o.device >= static_cast<int>(machine.devices.size()))
    throw InputError("--device " + std::to_string(o.device) + ": this machine has " +
                     std::to_string(machine.devices.size()) + " GPU(s)");
  if (o.bench.rounds > 1 && o.bench.round < 0) return run_rounds(o, out);
  CUDA_CHECK(cudaSetDevice(o.device));
  CUDA_CHECK(cudaFree(nullptr));  // the primary context, before the first driver call times anything
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));

  const bench::Settings& settings = o.bench;
  const bench::Plan plan = bench::make_plan(settings, vmm::allocation_granularity(o.device, false), free_bytes);

  run::RunContext rc;
  rc.tool_version = VMMCHECK_VERSION;
  rc.git_sha = VMMCHECK_GIT_SHA;
  run::set_machine(rc, machine);
  rc.device = o.device;
  rc.started = run::utc_now_iso8601();
  const bench::Json context = run::to_json(rc);

  out << "vmmcheck bench on " << machine.devices[static_cast<std::size_t>(o.device)].name << " (device " << o.device
      << ", driver " << machine.driver_release << ")" << (settings.quick ? ", quick" : "") << "; "
      << bench::bytes_text(free_bytes) << " free, sizes up to "
      << bench::bytes_text(plan.sizes.empty() ? 0 : plan.sizes.back()) << "\n"
      << std::flush;

  std::vector<bench::Json> rows;
  const auto write = [&](const std::string& finished) {
    if (o.json_given) run::write_results(o.json, bench::document(context, settings, rows, finished));
  };
  auto last = std::chrono::steady_clock::now();
  std::size_t failed = 0;
  bench::Run run(settings, [&](const bench::Row& r) {
    const auto now = std::chrono::steady_clock::now();
    rows.push_back(bench::to_json(r, settings.confidence));
    failed += r.status == "error";
    out << row_line(rows.size(), r, settings.confidence, std::chrono::duration<double>(now - last).count()) << "\n"
        << std::flush;
    last = now;
    write("");
  });
  bench::bench_all(run, plan);
  write(run::utc_now_iso8601());
  if (rows.empty()) throw InputError("no benchmark matches the filter '" + o.filter + "'");
  out << rows.size() << " rows" << (failed ? ", " + std::to_string(failed) + " failed" : "")
      << (o.json_given ? "; " + o.json : "") << "\n";
  return failed ? kExitFailure : kExitOk;
}

}  // namespace vmmcheck::cli
