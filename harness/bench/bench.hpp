#pragma once
// `vmmcheck bench` (docs/bench.md): what the VMM calls cost, and what it costs to reach memory through an
// alias. The settings and the plan they make (CPU-testable), the run that benchmarks emit rows into, and
// the benchmark groups, one file each.
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/record.hpp"
#include "bench/sampler.hpp"
#include "bench/settings.hpp"

namespace vmmcheck::bench {

// Every benchmark's name, so that a --filter selecting none of them is refused before any GPU work (a run
// measures the groups in turn and would learn it only at the end). Run refuses a row of a name not here:
// a new benchmark adds its name, and tests/unit/test_bench.cpp holds the list to the committed run's.
inline constexpr std::array<std::string_view, 14> kBenchmarks = {
    "vmm.create", "vmm.reserve", "vmm.map",          "vmm.set_access",  "vmm.unmap",      "vmm.release",      "vmm.free",
    "chunks.map", "ipc.export_fd", "ipc.import_fd", "grow.vmm",        "grow.cudamalloc", "access.bandwidth", "access.latency"};
// Whether `filter` (--filter's globs) selects any benchmark.
bool selects_any(const std::string& filter);
// The benchmarks' groups as globs, in kBenchmarks' order ("vmm.*, chunks.*, ..."): what a filter can select.
std::string group_globs();

// What a run measures.
struct Plan {
  std::vector<std::size_t> sizes;         // vmm: one cycle of calls per size
  std::size_t chunks_total = 0;           // chunks: the bytes mapped ...
  std::vector<std::size_t> chunk_counts;  // ... as this many allocations
  std::vector<std::size_t> ipc_sizes;
  std::size_t grow_step = 0, grow_to = 0;  // grow: by grow_step up to grow_to
  std::size_t access_size = 0;             // access: bytes read, bytes the chase spans
  std::size_t access_stride = 4096;        // access: two views alternate every this many bytes
  std::size_t chase_slot = 4096;           // access: one chase word per this many bytes
  std::uint32_t chase_hops = 0;            // access: hops per latency sample
};

// The plan for `s` on a device with allocation granularity `granularity` and `free_bytes` free: sizes from
// one granule up to max_size (default 64 GiB, 512 MiB with --quick), never more than half the free memory;
// every size a multiple of the granularity.
Plan make_plan(const Settings& s, std::size_t granularity, std::size_t free_bytes);

// A run of benchmarks: rows go to `sink` as each is measured (the CLI prints it and rewrites the JSON).
class Run {
 public:
  Run(Settings settings, std::function<void(const Row&)> sink);
  const Settings& settings() const { return settings_; }
  bool wants(const Row& row) const;  // the filter selects its benchmark's name

  // Fills the wanted `rows` from `measure()`, which returns one series of samples per row (in order). A
  // NotSupportedError marks them not_supported, any other error `error`, with the message; the run goes on.
  void measure(std::vector<Row> rows, const std::function<std::vector<std::vector<double>>()>& measure);
  // Emits the wanted `rows` as not run: `status` not_supported or error, `why`.
  void skip(std::vector<Row> rows, const std::string& status, const std::string& why);

 private:
  Settings settings_;
  std::function<void(const Row&)> sink_;
};

// The groups (docs/bench.md, "What is measured").
void bench_vmm_calls(Run& run, const Plan& plan);  // vmm.*:    vmm_calls.cpp
void bench_chunks(Run& run, const Plan& plan);     // chunks.*: chunks.cpp
void bench_ipc(Run& run, const Plan& plan);        // ipc.*:    ipc_fd.cpp
void bench_grow(Run& run, const Plan& plan);       // grow.*:   grow.cpp
void bench_access(Run& run, const Plan& plan);     // access.*: access.cpp

// Every group, in the order above.
void bench_all(Run& run, const Plan& plan);

// The run's document (docs/bench.md, "The JSON"): `context` as vmmcheck run writes it (without the
// budget and the case selection), the settings, the rows so far, and `finished` when given.
Json document(const Json& context, const Settings& s, const std::vector<Json>& rows, const std::string& finished);

}  // namespace vmmcheck::bench
