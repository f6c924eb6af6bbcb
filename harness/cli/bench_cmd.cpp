#include "cli/bench_cmd.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "bench/bench.hpp"
#include "bench/stats.hpp"
#include "cli/app.hpp"
#include "cli/version.hpp"
#include "common/error.hpp"
#include "device/machine.hpp"
#include "run/records/report_json.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::cli {
namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

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

}  // namespace

int cmd_bench(const Options& o, std::ostream& out) {
  if (o.json_given && (o.json.empty() || o.json == "-"))
    throw InputError("bench --json needs a FILE (rows are written as they are measured)");
  const device::Machine machine = device::describe_machine();
  if (machine.devices.empty()) throw NotSupportedError("bench needs a GPU: " + machine.no_gpu_reason);
  if (o.device >= static_cast<int>(machine.devices.size()))
    throw InputError("--device " + std::to_string(o.device) + ": this machine has " +
                     std::to_string(machine.devices.size()) + " GPU(s)");
  CUDA_CHECK(cudaSetDevice(o.device));
  CUDA_CHECK(cudaFree(nullptr));  // the primary context, before the first driver call times anything
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));

  const bench::Settings& settings = o.bench;
  const bench::Plan plan = bench::make_plan(settings, vmm::allocation_granularity(o.device, false), free_bytes);

  run::RunContext rc;
  rc.tool_version = VMMCHECK_VERSION;
  rc.git_sha = VMMCHECK_GIT_SHA;
  rc.driver_version = machine.driver_version;
  rc.driver_release = machine.driver_release;
  rc.runtime_version = machine.runtime_version;
  rc.devices = machine.devices;
  rc.device = o.device;
  rc.started = utc_now();
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
  write(utc_now());
  if (rows.empty()) throw InputError("no benchmark matches the filter '" + o.filter + "'");
  out << rows.size() << " rows" << (failed ? ", " + std::to_string(failed) + " failed" : "")
      << (o.json_given ? "; " + o.json : "") << "\n";
  return failed ? kExitFailure : kExitOk;
}

}  // namespace vmmcheck::cli
