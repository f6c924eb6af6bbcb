#pragma once
// One row of a bench run (docs/bench.md, "The JSON"): a benchmark at one point of its axes, its samples
// and their summary, or why it did not run. The id -- bench[axis=value,...] -- is what two runs are
// compared by, so axes keep the order a benchmark gives them.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace vmmcheck::bench {

using Json = nlohmann::ordered_json;

enum class Better { Lower, Higher };

struct Row {
  std::string bench;  // e.g. "vmm.map"
  Json axes = Json::object();
  std::string unit = "us";  // "us", "ns" or "GB/s"
  Better better = Better::Lower;
  std::vector<double> values;  // in the order taken; empty when the row did not run
  std::string status = "ok";   // "ok", "not_supported", "error"
  std::string why;             // what the machine lacks, or the call that failed

  std::string group() const { return bench.substr(0, bench.find('.')); }
  std::string id() const;
};

// Byte counts in axes stay numbers; this is for the console: 2 MiB, 64 GiB, 4 KiB.
std::string bytes_text(unsigned long long bytes);

Json to_json(const Row& row, double confidence);
// The reverse, for rows a round's process wrote (its summary is recomputed from `values`).
Row row_from_json(const Json& j);

// Rows of several rounds (docs/bench.md, "Rounds"), each round's rows as it wrote them, pooled by id in
// the order they first appear: the samples of every round, one summary of them all, and `rounds`, how
// many samples each round gave (in `values` in round order). A row that did not run in some round keeps
// the first such round's status and why.
std::vector<Json> pool_rounds(const std::vector<std::vector<Json>>& rounds, double confidence);

}  // namespace vmmcheck::bench
