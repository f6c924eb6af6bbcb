#pragma once
// Taking samples (docs/bench.md, "How a figure is made"): warm-up first, then samples until the most
// asked for, or until the time for the point is spent and the fewest asked for are in.
#include <chrono>
#include <cstddef>
#include <vector>

namespace vmmcheck::bench {

struct Policy {
  unsigned warmup = 3;
  unsigned min_samples = 20;  // the p50's 95% interval then spans at most ranks 6 to 15 of 20
  unsigned max_samples = 200;
  double seconds = 2.0;  // per point, after warm-up
};

// Microseconds `f()` took on the host's steady clock.
template <typename F>
double time_us(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

// Calls `once(values)` -- which appends one value to each of `series` vectors -- `warmup` times
// discarding what it gives, then as the policy says. Returns the series.
template <typename F>
std::vector<std::vector<double>> sample(const Policy& p, std::size_t series, F&& once) {
  std::vector<double> scratch(series);
  const auto take = [&](std::vector<double>& out) {
    out.assign(series, 0.0);
    once(out);
  };
  for (unsigned i = 0; i < p.warmup; ++i) take(scratch);
  std::vector<std::vector<double>> values(series);
  const auto start = std::chrono::steady_clock::now();
  for (unsigned n = 0; n < p.max_samples; ++n) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (n >= p.min_samples && spent >= p.seconds) break;
    take(scratch);
    for (std::size_t s = 0; s < series; ++s) values[s].push_back(scratch[s]);
  }
  return values;
}

}  // namespace vmmcheck::bench
