#include "run/report_json.hpp"

#include <ctime>
#include <fstream>
#include <regex>

#include "common/error.hpp"

namespace vmmcheck::run {

using nlohmann::json;

std::string format_version(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string driver_release_from(const std::string& text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." (open modules say "Open Kernel Module")
  static const std::regex release(R"(Kernel Module[^\n]*?\s(\d+\.\d+(\.\d+)?)\s)");
  std::smatch m;
  return std::regex_search(text, m, release) ? m[1].str() : "";
}

json to_json(const Budget& b) {
  return json{{"instances", b.instances},
              {"iterations", b.iterations},
              {"op_words", b.op_words},
              {"stress", b.stress},
              {"stress_accesses", b.stress_accesses},
              {"seed", b.seed},
              {"threads_per_block", b.threads_per_block},
              {"spin_timeout_ms", b.spin_timeout_ms},
              {"resident_timeout_ms", b.resident_timeout_ms},
              {"certifying", b.certifying()}};
}

json to_json(const RunContext& c) {
  json devices = json::array();
  for (const DeviceSummary& d : c.devices)
    devices.push_back({{"index", d.index}, {"name", d.name}, {"compute_capability", d.compute_capability}});
  return json{{"tool", "vmmcheck"},
              {"tool_version", c.tool_version},
              {"git_sha", c.git_sha},
              {"driver", c.driver_version ? format_version(c.driver_version) : ""},
              {"driver_release", c.driver_release},
              {"cuda", c.runtime_version ? format_version(c.runtime_version) : ""},
              {"devices", devices},
              {"device", c.device},
              {"budget", to_json(c.budget)},
              {"cases_path", c.cases_path},
              {"filter", c.filter},
              {"started", c.started}};
}

json to_json(const CaseResult& r) {
  json histogram = json::object();
  for (const auto& [outcome, count] : r.histogram) histogram[outcome] = count;
  return json{{"name", r.name},
              {"family", r.family},
              {"status", to_string(r.status)},
              {"expectation", model::to_string(r.expectation)},
              {"histogram", histogram},
              {"weak", r.weak},
              {"instances", r.instances},
              {"seconds", r.seconds},
              {"gpu_seconds", r.gpu_seconds},
              {"reason", r.reason}};
}

json results_document(const RunContext& c, const std::vector<CaseResult>& results) {
  json list = json::array();
  json totals = {{"Pass", 0}, {"Fail", 0}, {"NotSupported", 0}, {"Crash", 0}, {"Timeout", 0}, {"Error", 0}};
  for (const CaseResult& r : results) {
    list.push_back(to_json(r));
    totals[to_string(r.status)] = totals[to_string(r.status)].get<int>() + 1;
  }
  return json{{"schema_version", 1}, {"context", to_json(c)}, {"totals", totals}, {"results", list}};
}

void write_results(const std::filesystem::path& path, const json& document) {
  const std::filesystem::path tmp = path.string() + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path.string() + ": cannot write the JSON results");
    out << document.dump(2) << '\n';
    out.flush();
    if (!out) throw InputError(path.string() + ": writing the JSON results failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw InputError(path.string() + ": cannot replace the JSON results: " + ec.message());
}

}  // namespace vmmcheck::run
