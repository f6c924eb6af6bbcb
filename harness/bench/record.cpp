#include "bench/record.hpp"

#include <map>

#include "bench/stats.hpp"

namespace vmmcheck::bench {
namespace {

Json bound(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }
Json interval(const Interval& i) { return Json::array({bound(i.lower), bound(i.upper)}); }

}  // namespace

std::string Row::id() const {
  std::string out = bench + "[";
  bool first = true;
  for (const auto& [axis, value] : axes.items()) {
    out += (first ? "" : ",") + axis + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    first = false;
  }
  return out + "]";
}

std::string bytes_text(unsigned long long bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) bytes /= 1024, ++unit;
  return std::to_string(bytes) + " " + kUnits[unit];
}

Json to_json(const Row& row, double confidence) {
  Json j{{"id", row.id()},       {"bench", row.bench},
         {"group", row.group()}, {"axes", row.axes},
         {"unit", row.unit},     {"better", row.better == Better::Lower ? "lower" : "higher"},
         {"status", row.status}};
  if (row.status != "ok" || row.values.empty()) {
    j["status"] = row.status == "ok" ? "error" : row.status;
    j["why"] = row.why.empty() ? "no samples were taken" : row.why;
    return j;
  }
  const Summary s = summarize(row.values, confidence);
  j["n"] = s.n;
  j["p50"] = s.p50;
  j["p90"] = s.p90;
  j["p99"] = s.p99;
  j["mean"] = s.mean;
  j["min"] = s.min;
  j["max"] = s.max;
  j["ci"] = Json{{"p50", interval(s.ci50)}, {"p90", interval(s.ci90)}, {"p99", interval(s.ci99)}};
  j["values"] = row.values;
  return j;
}

Row row_from_json(const Json& j) {
  Row r;
  r.bench = j.at("bench").get<std::string>();
  r.axes = j.at("axes");
  r.unit = j.at("unit").get<std::string>();
  r.better = j.at("better") == "higher" ? Better::Higher : Better::Lower;
  r.status = j.at("status").get<std::string>();
  if (j.contains("why")) r.why = j.at("why").get<std::string>();
  if (j.contains("values")) r.values = j.at("values").get<std::vector<double>>();
  return r;
}

std::vector<Json> pool_rounds(const std::vector<std::vector<Json>>& rounds, double confidence) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<std::size_t, const Json*>>> by_id;
  for (std::size_t k = 0; k < rounds.size(); ++k)
    for (const Json& row : rounds[k]) {
      const std::string id = row.at("id").get<std::string>();
      if (by_id.find(id) == by_id.end()) order.push_back(id);
      by_id[id].emplace_back(k, &row);
    }
  std::vector<Json> pooled;
  for (const std::string& id : order) {
    Row r = row_from_json(*by_id[id].front().second);
    r.values.clear();
    Json counts = Json::array();
    for (const auto& [k, row] : by_id[id]) {
      const Row one = row_from_json(*row);
      if (one.status != "ok") {
        r.status = one.status;
        r.why = "round " + std::to_string(k + 1) + ": " + one.why;
        break;
      }
      r.values.insert(r.values.end(), one.values.begin(), one.values.end());
      counts.push_back(one.values.size());
    }
    Json j = to_json(r, confidence);
    if (r.status == "ok") j["rounds"] = counts;
    pooled.push_back(std::move(j));
  }
  return pooled;
}

}  // namespace vmmcheck::bench
