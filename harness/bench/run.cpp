#include "bench/bench.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "model/select.hpp"

namespace vmmcheck::bench {

Plan make_plan(const Settings& s, std::size_t granularity, std::size_t free_bytes) {
  constexpr std::size_t MiB = std::size_t(1) << 20, GiB = std::size_t(1) << 30;
  const std::size_t g = std::max<std::size_t>(granularity, 1);
  const auto fit = [&](std::size_t bytes) { return std::max(g, bytes / g * g); };
  std::size_t largest = s.max_size ? s.max_size : (s.quick ? 512 * MiB : 64 * GiB);
  largest = fit(std::min<std::size_t>(largest, free_bytes / 2));
  const auto upto = [&](std::vector<std::size_t> sizes) {
    std::vector<std::size_t> out;
    for (std::size_t b : sizes)
      if (fit(b) <= largest && (out.empty() || fit(b) > out.back())) out.push_back(fit(b));
    // A list cut short by the largest size ends at it.
    if (out.empty() || (fit(sizes.back()) > largest && largest > out.back())) out.push_back(largest);
    return out;
  };
  Plan p;
  p.sizes = s.quick ? upto({g, 64 * MiB}) : upto({g, 32 * MiB, 512 * MiB, 8 * GiB, 64 * GiB});
  p.chunks_total = fit(std::min(largest, s.quick ? 64 * MiB : GiB));
  for (std::size_t n : s.quick ? std::vector<std::size_t>{1, 32} : std::vector<std::size_t>{1, 8, 64, 512})
    if (p.chunks_total / n >= g && p.chunks_total % (n * g) == 0) p.chunk_counts.push_back(n);
  p.ipc_sizes = s.quick ? upto({g}) : upto({g, 512 * MiB, 8 * GiB});
  p.grow_step = std::min(largest, fit(s.quick ? 32 * MiB : 64 * MiB));
  p.grow_to = std::max(p.grow_step, std::min(largest, s.quick ? 256 * MiB : 2 * GiB) / p.grow_step * p.grow_step);
  p.access_size = fit(std::min(largest, s.quick ? 512 * MiB : 16 * GiB));
  p.chase_hops = s.quick ? 20000 : 100000;
  return p;
}

Run::Run(Settings settings, std::function<void(const Row&)> sink)
    : settings_(std::move(settings)), sink_(std::move(sink)) {}

bool selects_any(const std::string& filter) {
  return std::any_of(kBenchmarks.begin(), kBenchmarks.end(),
                     [&](std::string_view name) { return model::filter_selects(filter, std::string(name)); });
}

std::string group_globs() {
  std::string globs;
  std::vector<std::string_view> seen;
  for (std::string_view name : kBenchmarks) {
    const std::string_view group = name.substr(0, name.find('.'));
    if (std::find(seen.begin(), seen.end(), group) != seen.end()) continue;
    seen.push_back(group);
    globs += (globs.empty() ? "" : ", ") + std::string(group) + ".*";
  }
  return globs;
}

bool Run::wants(const Row& row) const {
  if (std::find(kBenchmarks.begin(), kBenchmarks.end(), row.bench) == kBenchmarks.end())
    throw std::logic_error("benchmark " + row.bench + " is not in bench::kBenchmarks (harness/bench/bench.hpp)");
  return model::filter_selects(settings_.filter, row.bench);
}

void Run::measure(std::vector<Row> rows, const std::function<std::vector<std::vector<double>>()>& measure) {
  if (std::none_of(rows.begin(), rows.end(), [&](const Row& r) { return wants(r); })) return;
  try {
    std::vector<std::vector<double>> series = measure();
    for (std::size_t i = 0; i < rows.size() && i < series.size(); ++i) rows[i].values = std::move(series[i]);
  } catch (const NotSupportedError& e) {
    return skip(std::move(rows), "not_supported", e.what());
  } catch (const std::exception& e) {
    return skip(std::move(rows), "error", e.what());
  }
  for (const Row& r : rows)
    if (wants(r)) sink_(r);
}

void Run::skip(std::vector<Row> rows, const std::string& status, const std::string& why) {
  for (Row& r : rows) {
    if (!wants(r)) continue;
    r.values.clear();
    r.status = status;
    r.why = why;
    sink_(r);
  }
}

void bench_all(Run& run, const Plan& plan) {
  bench_vmm_calls(run, plan);
  bench_chunks(run, plan);
  bench_ipc(run, plan);
  bench_grow(run, plan);
  bench_access(run, plan);
}

Json document(const Json& context, const Settings& s, const std::vector<Json>& rows, const std::string& finished) {
  Json ctx = context;
  for (const char* key : {"budget", "cases_path", "filter"}) ctx.erase(key);
  Json doc{{"schema", "vmmcheck-bench/1"},
           {"context", ctx},
           {"settings",
            {{"quick", s.quick},
             {"warmup", s.policy.warmup},
             {"min_samples", s.policy.min_samples},
             {"max_samples", s.policy.max_samples},
             {"seconds_per_point", s.policy.seconds},
             {"confidence", s.confidence},
             {"filter", s.filter},
             {"max_size", s.max_size},
             {"rounds", s.rounds}}}};
  if (!finished.empty()) doc["finished"] = finished;
  doc["results"] = rows;
  return doc;
}

}  // namespace vmmcheck::bench
