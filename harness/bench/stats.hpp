#pragma once
// The statistics of a benchmark point (docs/bench.md, "How a figure is made"): percentiles by linear
// interpolation between order statistics (numpy's default, so the report driver computes the same
// numbers), and for each a distribution-free confidence interval from the order statistics.
//
// Why distribution-free: timings of driver calls are skewed and multi-modal (a call that sometimes takes
// a slow path); an interval that assumes a normal distribution would be wrong exactly where it matters.
// The k-th smallest of n samples lies below the q-quantile with a binomial probability, whatever the
// distribution, so a pair of ranks brackets the quantile with a known coverage.
#include <cstddef>
#include <optional>
#include <vector>

namespace vmmcheck::bench {

// The q-quantile (0 <= q <= 1) of `sorted` (ascending, not empty): numpy.percentile's "linear".
double quantile(const std::vector<double>& sorted, double q);

// Ranks (0-based indices into the sorted samples) whose values bracket the q-quantile of n samples with
// at least `confidence` coverage, chosen narrowest in probability; a side is unset where even the most
// extreme sample cannot bound it at that confidence (the p99 of a few dozen samples has no upper bound).
struct Ranks {
  std::optional<std::size_t> lower, upper;
};
Ranks quantile_ranks(std::size_t n, double q, double confidence);

struct Interval {
  std::optional<double> lower, upper;
};

struct Summary {
  std::size_t n = 0;
  double p50 = 0, p90 = 0, p99 = 0, mean = 0, min = 0, max = 0;
  Interval ci50, ci90, ci99;
};

// Summarises `values` (any order, not empty) at `confidence` (e.g. 0.95).
Summary summarize(std::vector<double> values, double confidence);

}  // namespace vmmcheck::bench
