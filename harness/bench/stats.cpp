#include "bench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace vmmcheck::bench {
namespace {

// P(B = k) for B ~ Binomial(n, q), in log space so that n in the thousands does not underflow.
double binomial_pmf(std::size_t n, std::size_t k, double q) {
  if (q <= 0) return k == 0 ? 1.0 : 0.0;
  if (q >= 1) return k == n ? 1.0 : 0.0;
  const double nn = static_cast<double>(n), kk = static_cast<double>(k);
  return std::exp(std::lgamma(nn + 1) - std::lgamma(kk + 1) - std::lgamma(nn - kk + 1) + kk * std::log(q) +
                  (nn - kk) * std::log1p(-q));
}

}  // namespace

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("quantile of no samples");
  const double h = (static_cast<double>(sorted.size()) - 1) * q;
  const std::size_t below = static_cast<std::size_t>(std::floor(h));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

Ranks quantile_ranks(std::size_t n, double q, double confidence) {
  // B, the number of samples below the quantile, is Binomial(n, q). With the sorted samples
  // X(1) <= ... <= X(n) (1-based), X(a) <= quantile < X(b+1) exactly when a <= B <= b. So grow a run
  // [a, b] of values of B from its mode, each time taking the more probable neighbour, until the run's
  // probability reaches the confidence: the interval is [X(a), X(b+1)], where a = 0 means no lower
  // bound and b + 1 > n no upper one.
  Ranks r;
  if (n == 0) return r;
  std::size_t a = std::min(n, static_cast<std::size_t>(std::floor((static_cast<double>(n) + 1) * q)));
  std::size_t b = a;
  double coverage = binomial_pmf(n, a, q);
  while (coverage < confidence && (a > 0 || b < n)) {
    const double left = a > 0 ? binomial_pmf(n, a - 1, q) : -1;
    const double right = b < n ? binomial_pmf(n, b + 1, q) : -1;
    // Ties (equal up to rounding: lgamma's last bits differ between libraries) go up, as the report
    // driver's copy of this rule does (reports/vmmcheck_report/bench.py).
    if (left > right * (1 + 1e-9)) coverage += left, --a;
    else coverage += right, ++b;
  }
  if (a > 0) r.lower = a - 1;   // X(a), 0-based
  if (b + 1 <= n) r.upper = b;  // X(b+1), 0-based
  return r;
}

Summary summarize(std::vector<double> values, double confidence) {
  if (values.empty()) throw std::invalid_argument("summary of no samples");
  std::sort(values.begin(), values.end());
  Summary s;
  s.n = values.size();
  s.p50 = quantile(values, 0.50);
  s.p90 = quantile(values, 0.90);
  s.p99 = quantile(values, 0.99);
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(s.n);
  s.min = values.front();
  s.max = values.back();
  const auto interval = [&](double q) {
    const Ranks r = quantile_ranks(s.n, q, confidence);
    Interval i;
    if (r.lower) i.lower = values[*r.lower];
    if (r.upper) i.upper = values[*r.upper];
    return i;
  };
  s.ci50 = interval(0.50);
  s.ci90 = interval(0.90);
  s.ci99 = interval(0.99);
  return s;
}

}  // namespace vmmcheck::bench
