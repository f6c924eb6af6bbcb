#include "bench/record.hpp"

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

}  // namespace vmmcheck::bench
