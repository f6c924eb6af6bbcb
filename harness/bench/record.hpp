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

}  // namespace vmmcheck::bench
