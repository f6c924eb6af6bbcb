// vmmcheck bench on the CPU (docs/bench.md): the statistics, the plan, the rows and their JSON, and the
// command line. What the benchmarks measure needs a GPU; how they are summarised and written does not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>

#include "bench/bench.hpp"
#include "bench/stats.hpp"
#include "cli_driver.hpp"
#include "common/error.hpp"

namespace vmmcheck {
namespace {

using testing::cli;
using testing::has_gpu;

constexpr std::size_t MiB = std::size_t(1) << 20, GiB = std::size_t(1) << 30;

// numpy.percentile(x, q) for x = [1, 2, 3, 4, 10] (the "linear" method).
TEST(BenchStats, QuantilesInterpolateAsNumpyDoes) {
  const std::vector<double> x{1, 2, 3, 4, 10};
  EXPECT_DOUBLE_EQ(bench::quantile(x, 0.5), 3.0);
  EXPECT_DOUBLE_EQ(bench::quantile(x, 0.9), 7.6);   // h = 3.6: 4 + 0.6 * 6
  EXPECT_DOUBLE_EQ(bench::quantile(x, 0.99), 9.76);  // h = 3.96
  EXPECT_DOUBLE_EQ(bench::quantile(x, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(bench::quantile(x, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(bench::quantile({7}, 0.5), 7.0);
  EXPECT_THROW(bench::quantile({}, 0.5), std::invalid_argument);
}

// The coverage of [X(a), X(b+1)] is P(a <= B <= b), B ~ Binomial(n, q): the ranks chosen must reach it.
double coverage(std::size_t n, double q, const bench::Ranks& r) {
  const std::size_t a = r.lower ? *r.lower + 1 : 0, b = r.upper ? *r.upper : n;
  double sum = 0;
  for (std::size_t k = a; k <= b; ++k)
    sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(q) +
                    (n - k) * std::log1p(-q));
  return sum;
}

TEST(BenchStats, TheMedianOfAHundredIsBracketedByTheFortyFirstAndSixtyFirstSample) {
  const bench::Ranks r = bench::quantile_ranks(100, 0.5, 0.95);
  ASSERT_TRUE(r.lower && r.upper);
  EXPECT_EQ(*r.lower, 40u);  // X(41)
  EXPECT_EQ(*r.upper, 60u);  // X(61): P(41 <= B <= 60) = 0.954
  EXPECT_GE(coverage(100, 0.5, r), 0.95);
  // One rank narrower on either side falls short.
  EXPECT_LT(coverage(100, 0.5, bench::Ranks{41u, 60u}), 0.95);
  EXPECT_LT(coverage(100, 0.5, bench::Ranks{40u, 59u}), 0.95);
}

TEST(BenchStats, EveryIntervalReachesItsConfidenceAndOnlyMissingBoundsAreUnset) {
  for (std::size_t n : {1u, 5u, 10u, 30u, 100u, 200u, 1000u})
    for (double q : {0.5, 0.9, 0.99})
      for (double conf : {0.9, 0.95, 0.99}) {
        const bench::Ranks r = bench::quantile_ranks(n, q, conf);
        if (r.lower && r.upper) EXPECT_LE(*r.lower, *r.upper);
        if (r.upper) EXPECT_LT(*r.upper, n);
        // A missing bound is only ever missing because the other samples cannot reach the confidence.
        if (r.lower && r.upper) EXPECT_GE(coverage(n, q, r), conf) << n << " " << q << " " << conf;
      }
  // The p99 of 30 samples has no upper bound at 95%; the p99 of 1000 has both.
  EXPECT_FALSE(bench::quantile_ranks(30, 0.99, 0.95).upper);
  const bench::Ranks many = bench::quantile_ranks(1000, 0.99, 0.95);
  EXPECT_TRUE(many.lower && many.upper);
}

// On samples of a known distribution the interval covers the true quantile about as often as it says.
TEST(BenchStats, IntervalsCoverTheTrueMedianAtTheirConfidence) {
  std::mt19937_64 random(7);
  std::lognormal_distribution<double> skewed(3.0, 0.5);  // median e^3, like a driver call's timings
  const double truth = std::exp(3.0);
  int covered = 0;
  const int trials = 2000;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> v(60);
    for (double& x : v) x = skewed(random);
    const bench::Summary s = bench::summarize(v, 0.95);
    covered += s.ci50.lower && s.ci50.upper && *s.ci50.lower <= truth && truth <= *s.ci50.upper;
  }
  EXPECT_GE(covered, trials * 0.94);
  EXPECT_LE(covered, trials * 0.995);
}

TEST(BenchStats, SummaryOfSamplesInAnyOrder) {
  const bench::Summary s = bench::summarize({5, 1, 4, 2, 3}, 0.95);
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.p50, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_THROW(bench::summarize({}, 0.95), std::invalid_argument);
}

TEST(BenchSampler, WarmupIsDiscardedAndThePolicyBoundsTheSamples) {
  int calls = 0;
  const auto values = bench::sample(bench::Policy{2, 3, 5, 0.0}, 2, [&](std::vector<double>& t) {
    ++calls;
    t[0] = calls;
    t[1] = -calls;
  });
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0], (std::vector<double>{3, 4, 5}));  // no time asked: the fewest samples, after 2 warm-ups
  EXPECT_EQ(values[1], (std::vector<double>{-3, -4, -5}));
  calls = 0;
  EXPECT_EQ(bench::sample(bench::Policy{0, 1, 7, 3600.0}, 1, [&](std::vector<double>& t) { t[0] = ++calls; })[0].size(), 7u);
}

TEST(BenchPlan, SizesGoFromOneGranuleToTheLargestThatFits) {
  const bench::Settings full = bench::default_settings(false);
  const bench::Plan p = bench::make_plan(full, 2 * MiB, 140 * GiB);
  EXPECT_EQ(p.sizes, (std::vector<std::size_t>{2 * MiB, 32 * MiB, 512 * MiB, 8 * GiB, 64 * GiB}));
  EXPECT_EQ(p.chunks_total, GiB);
  EXPECT_EQ(p.chunk_counts, (std::vector<std::size_t>{1, 8, 64, 512}));  // 512 chunks of one granule
  EXPECT_EQ(p.grow_to / p.grow_step, 32u);
  EXPECT_EQ(p.access_size, 16 * GiB);
  // Half the free memory at most, and --max-size.
  EXPECT_EQ(bench::make_plan(full, 2 * MiB, 20 * GiB).sizes.back(), 10 * GiB);
  bench::Settings capped = full;
  capped.max_size = 100 * MiB;
  const bench::Plan c = bench::make_plan(capped, 2 * MiB, 140 * GiB);
  EXPECT_EQ(c.sizes, (std::vector<std::size_t>{2 * MiB, 32 * MiB, 100 * MiB}));
  EXPECT_EQ(c.access_size, 100 * MiB);
  for (std::size_t s : c.sizes) EXPECT_EQ(s % (2 * MiB), 0u);
  // --quick: a smoke run.
  const bench::Plan q = bench::make_plan(bench::default_settings(true), 2 * MiB, 140 * GiB);
  EXPECT_EQ(q.sizes, (std::vector<std::size_t>{2 * MiB, 64 * MiB}));
  EXPECT_LT(bench::default_settings(true).policy.max_samples, full.policy.max_samples);
  EXPECT_EQ(bench::default_settings(true).rounds, 1u);
  EXPECT_GT(full.rounds, 1u);
}

TEST(BenchRows, IdsNameTheAxesInOrderAndTheJsonSummarises) {
  bench::Row r{"vmm.set_access", bench::Json{{"size", 2 * MiB}, {"devices", 2}}};
  EXPECT_EQ(r.id(), "vmm.set_access[size=2097152,devices=2]");
  EXPECT_EQ(r.group(), "vmm");
  r.values = {3, 1, 2};
  const bench::Json j = bench::to_json(r, 0.95);
  EXPECT_EQ(j.at("status"), "ok");
  EXPECT_EQ(j.at("n"), 3);
  EXPECT_DOUBLE_EQ(j.at("p50").get<double>(), 2);
  EXPECT_TRUE(j.at("ci").at("p99").at(1).is_null());  // three samples bound no p99
  EXPECT_EQ(j.at("values"), bench::Json::array({3, 1, 2}));
  bench::Row latency{"access.latency", bench::Json{{"memory", "host_numa"}, {"views", 2}}, "ns"};
  EXPECT_EQ(latency.id(), "access.latency[memory=host_numa,views=2]");
  latency.status = "not_supported";
  latency.why = "no host NUMA";
  const bench::Json n = bench::to_json(latency, 0.95);
  EXPECT_EQ(n.at("why"), "no host NUMA");
  EXPECT_FALSE(n.contains("p50"));
  EXPECT_EQ(bench::bytes_text(64 * GiB), "64 GiB");
  EXPECT_EQ(bench::bytes_text(3 * 1000), "3000 B");
}

TEST(BenchRows, RoundsArePooledByIdWithHowManySamplesEachGave) {
  bench::Row a{"vmm.map", bench::Json{{"size", 2 * MiB}}};
  bench::Row b{"ipc.export_fd", bench::Json{{"size", 2 * MiB}}};
  a.values = {1, 2, 3};
  b.values = {10, 11};
  const std::vector<bench::Json> first{bench::to_json(a, 0.95), bench::to_json(b, 0.95)};
  a.values = {4, 5};
  b.status = "error";
  b.why = "cuMemExportToShareableHandle failed";
  b.values.clear();
  const std::vector<bench::Json> second{bench::to_json(a, 0.95), bench::to_json(b, 0.95)};
  const std::vector<bench::Json> pooled = bench::pool_rounds({first, second}, 0.95);
  ASSERT_EQ(pooled.size(), 2u);
  EXPECT_EQ(pooled[0].at("id"), "vmm.map[size=2097152]");
  EXPECT_EQ(pooled[0].at("values"), bench::Json::array({1, 2, 3, 4, 5}));
  EXPECT_EQ(pooled[0].at("rounds"), bench::Json::array({3, 2}));
  EXPECT_DOUBLE_EQ(pooled[0].at("p50").get<double>(), 3);
  // A row that failed in a round is not pooled into a figure: it says which round and why.
  EXPECT_EQ(pooled[1].at("status"), "error");
  EXPECT_EQ(pooled[1].at("why"), "round 2: cuMemExportToShareableHandle failed");
  EXPECT_FALSE(pooled[1].contains("values"));
  // And a row read back is the row written.
  const bench::Row back = bench::row_from_json(first[0]);
  EXPECT_EQ(back.id(), "vmm.map[size=2097152]");
  EXPECT_EQ(back.values, (std::vector<double>{1, 2, 3}));
}

TEST(BenchRun, TheFilterPicksRowsAndAFailureMarksItsRowsAndTheRunGoesOn) {
  bench::Settings s = bench::default_settings(true);
  s.filter = "vmm.map,ipc.*";
  std::vector<bench::Row> got;
  bench::Run run(s, [&](const bench::Row& r) { got.push_back(r); });
  run.measure({bench::Row{"vmm.create"}, bench::Row{"vmm.map"}}, [] {
    return std::vector<std::vector<double>>{{1}, {2}};
  });
  run.measure({bench::Row{"ipc.export_fd"}}, []() -> std::vector<std::vector<double>> {
    throw NotSupportedError("no POSIX fd handles here");
  });
  run.measure({bench::Row{"ipc.import_fd"}}, []() -> std::vector<std::vector<double>> {
    throw std::runtime_error("cuMemImportFromShareableHandle failed");
  });
  bool measured = false;
  run.measure({bench::Row{"grow.vmm"}}, [&] {
    measured = true;
    return std::vector<std::vector<double>>{{1}};
  });
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].bench, "vmm.map");
  EXPECT_EQ(got[0].values, std::vector<double>{2});
  EXPECT_EQ(got[1].status, "not_supported");
  EXPECT_EQ(got[2].status, "error");
  EXPECT_NE(got[2].why.find("cuMemImportFromShareableHandle"), std::string::npos);
  EXPECT_FALSE(measured);  // nothing wanted: not even measured
  // An exclusion takes a benchmark out, whatever its axes.
  bench::Settings but = bench::default_settings(true);
  but.filter = "vmm.*,-vmm.map";
  const bench::Run excluding(but, [](const bench::Row&) {});
  EXPECT_FALSE(excluding.wants(bench::Row{"vmm.map", bench::Json{{"size", 2 * MiB}}}));
  EXPECT_TRUE(excluding.wants(bench::Row{"vmm.unmap", bench::Json{{"size", 2 * MiB}}}));
}

// The list a --filter is checked against before any GPU work is the benchmarks a run measures: the
// committed H200 run's names, every one (a benchmark added without its name fails there, in Run::wants).
TEST(BenchRun, TheListOfBenchmarksIsTheCommittedRunsAndAFilterMustSelectOne) {
  std::ifstream in(std::string(VMMCHECK_SOURCE_DIR) + "/ci/results/bench/nvidia-h200_driver-580.159.04.json");
  const bench::Json doc = bench::Json::parse(in);
  std::set<std::string> ran;
  for (const auto& r : doc.at("results")) ran.insert(r.at("bench").get<std::string>());
  const std::set<std::string> listed(bench::kBenchmarks.begin(), bench::kBenchmarks.end());
  EXPECT_EQ(ran, listed);
  EXPECT_TRUE(bench::selects_any(""));
  EXPECT_TRUE(bench::selects_any("grow.*"));
  EXPECT_FALSE(bench::selects_any("nothing.at.all"));
  EXPECT_FALSE(bench::selects_any("vmm.*,-vmm.*"));
  const bench::Run run(bench::default_settings(true), [](const bench::Row&) {});
  EXPECT_THROW(run.wants(bench::Row{"vmm.unlisted"}), std::logic_error);
  const auto o = cli({"bench", "--filter", "nothing.at.all"});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("no benchmark matches the filter 'nothing.at.all' (vmm.*, chunks.*, ipc.*, grow.*, access.*)"),
            std::string::npos)
      << o.err << ": the groups, each once, in the list's order";
}

TEST(BenchDocument, CarriesTheContextWithoutTheCaseSelectionAndTheSettings) {
  const bench::Json context{{"tool", "vmmcheck"}, {"budget", {{"instances", 1}}}, {"cases_path", "x"}, {"filter", ""}};
  const bench::Json doc = bench::document(context, bench::default_settings(true), {bench::Json{{"id", "a[]"}}}, "2026-12-01T00:00:00Z");
  EXPECT_EQ(doc.at("schema"), "vmmcheck-bench/1");
  EXPECT_FALSE(doc.at("context").contains("budget"));
  EXPECT_TRUE(doc.at("settings").at("quick").get<bool>());
  EXPECT_EQ(doc.at("results").size(), 1u);
  EXPECT_EQ(doc.at("finished"), "2026-12-01T00:00:00Z");
}

TEST(BenchCli, WithoutAGpuItSaysSoAndBadFlagsAreUsageErrors) {
  if (!has_gpu()) {
    const auto o = cli({"bench", "--quick"});
    EXPECT_EQ(o.code, 77);
    EXPECT_NE(o.err.find("bench needs a GPU"), std::string::npos) << o.err;
  }
  EXPECT_EQ(cli({"bench", "--confidence", "2"}).code, 2);
  EXPECT_EQ(cli({"bench", "--max-size", "lots"}).code, 2);
  EXPECT_EQ(cli({"bench", "--json"}).code, 2);  // rows are written as measured: a file is needed
  const auto help = cli({"bench", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--quick"), std::string::npos);
}

}  // namespace
}  // namespace vmmcheck
