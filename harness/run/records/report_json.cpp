#include "run/records/report_json.hpp"

#include <ctime>
#include <limits>
#include <type_traits>
#include <fstream>
#include <iterator>

#include "common/error.hpp"
#include "common/paths.hpp"
#include "common/json_depth.hpp"

namespace vmmcheck::run {

using device::format_version;
using json = Json;

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

json to_json(const Budget& b) {
  json j{{"instances", b.instances},
              {"iterations", b.iterations},
              {"row_launches", b.row_launches},
              {"op_words", b.op_words},
              // "stress", "stress_accesses" and "threads_per_block" as results before stress params had them.
              {"stress", b.stress.any()},
              {"stress_accesses", b.stress.pre_accesses},
              {"seed", b.seed},
              {"threads_per_block", b.stress.threads_per_block},
              {"spin_timeout_ms", b.stress.spin_timeout_us / 1000.0},
              {"resident_timeout_ms", b.resident_timeout_ms},
              {"certifying", b.certifying()},
              {"stress_params", to_json(b.stress)}};
  if (!b.row_stress.empty()) j["row_stress_params"] = to_json(b.row_stress);
  return j;
}

void set_machine(RunContext& c, const device::Machine& m) {
  c.driver_version = m.driver_version;
  c.driver_release = m.driver_release;
  c.runtime_version = m.runtime_version;
  c.devices = m.devices;
}

json to_json(const RunContext& c) {
  json devices = json::array();
  for (const DeviceSummary& d : c.devices)
    devices.push_back({{"index", d.index}, {"name", d.name}, {"compute_capability", d.compute_capability}});
  json out{{"tool", "vmmcheck"},
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
  if (!c.caselist.empty()) out["caselist"] = c.caselist;
  if (c.shard) out["shard"] = {{"index", c.shard->index}, {"count", c.shard->count}};
  if (!c.resumed.empty()) out["resumed"] = c.resumed;
  return out;
}

namespace {

json histogram_json(const Histogram& h) {
  json out = json::object();
  for (const auto& [outcome, count] : h) out[outcome] = count;
  return out;
}

json axes_json(const Axes& a) {
  json out = json::object();
  for (const auto& [axis, value] : a) out[axis] = value;
  return out;
}

json power_json(const Power& p) {
  json out{{"control", p.control},       {"mechanism", p.mechanism},     {"axes", axes_json(p.axes)},
           {"status", to_string(p.status)}, {"histogram", histogram_json(p.histogram)},
           {"instances", p.instances},   {"violations", p.violations},   {"discriminating", p.discriminating()},
           {"reason", p.reason}};
  if (!p.mutant.empty()) out["mutant"] = p.mutant;
  if (!p.separate_because.empty()) out["separate_because"] = p.separate_because;
  if (!p.tried.empty()) {
    json tried = json::array();
    for (const Power::Tried& t : p.tried)
      tried.push_back({{"control", t.control}, {"mechanism", t.mechanism}, {"status", to_string(t.status)},
                       {"instances", t.instances}, {"violations", t.violations}, {"reason", t.reason},
                       {"seconds", t.seconds}, {"compile_wait_seconds", t.compile_wait_seconds}});
    out["tried"] = std::move(tried);
  }
  return out;
}

}  // namespace

json to_json(const CaseResult& r) {
  const json histogram = histogram_json(r.histogram);
  const json axes = axes_json(r.axes);
  json record = json{{"name", r.name},
              {"family", r.family},
              {"pattern", r.pattern},
              {"axes", axes},
              {"status", to_string(r.status)},
              {"expectation", model::to_string(r.expectation)},
              {"histogram", histogram},
              {"weak", r.weak},
              {"instances", r.instances},
              {"seconds", r.seconds},
              {"gpu_seconds", r.gpu_seconds},
              {"reason", r.reason},
              {"rule", r.rule},
              {"citation", r.citation}};
  if (r.judged) record["judged"] = *r.judged;
  if (r.compile_seconds > 0) record["compile_seconds"] = r.compile_seconds;
  if (r.compile_wait_seconds > 0) record["compile_wait_seconds"] = r.compile_wait_seconds;
  if (r.power) record["power"] = power_json(*r.power);
  if (r.original_status) record["original_status"] = to_string(*r.original_status);
  if (!r.note.empty()) record["note"] = r.note;
  return record;
}

namespace {

// Reads j[key] as T, or throws InputError naming the source and the field. Counts must be
// non-negative integers that fit T (nlohmann would wrap -1, or truncate 1.9, without a word).
template <typename T>
T field(const json& j, const char* key, const std::string& source) {
  if (!j.is_object() || !j.contains(key)) throw InputError(source + ": missing '" + key + "'");
  const json& v = j.at(key);
  const auto wrong = [&](const std::string& what) {
    return InputError(source + ": '" + key + "' " + what + " (" + v.dump(-1, ' ', false, json::error_handler_t::replace) + ")");
  };
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!v.is_number_unsigned()) throw wrong("must be a non-negative integer");
    if (v.get<std::uint64_t>() > std::numeric_limits<T>::max()) throw wrong("is too large");
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number()) throw wrong("must be a number");
  }
  try {
    return v.get<T>();
  } catch (const json::exception&) {
    throw wrong("has the wrong type");
  }
}

}  // namespace

namespace {

Histogram histogram_from_json(const json& h, const std::string& where) {
  if (!h.is_object()) throw InputError(where + ": 'histogram' is not an object");
  Histogram out;
  for (const auto& [outcome, count] : h.items()) {
    if (!count.is_number_unsigned()) throw InputError(where + ": histogram bin '" + outcome + "' is not a count");
    out.emplace_back(outcome, count.get<std::uint64_t>());
  }
  return out;
}

Axes axes_from_json(const json& a, const std::string& where) {
  if (!a.is_object()) throw InputError(where + ": 'axes' is not an object");
  Axes out;
  for (const auto& [axis, value] : a.items()) {
    if (!value.is_string()) throw InputError(where + ": axis '" + axis + "' is not a string");
    out.emplace_back(axis, value.get<std::string>());
  }
  return out;
}

Power power_from_json(const json& j, const std::string& where) {
  Power p;
  p.control = field<std::string>(j, "control", where);
  p.mechanism = field<std::string>(j, "mechanism", where);
  p.axes = axes_from_json(field<json>(j, "axes", where), where);
  if (!parse_status(field<std::string>(j, "status", where), p.status))
    throw InputError(where + ": unknown status '" + j.at("status").get<std::string>() + "'");
  p.histogram = histogram_from_json(field<json>(j, "histogram", where), where);
  p.instances = field<std::uint64_t>(j, "instances", where);
  p.violations = field<std::uint64_t>(j, "violations", where);
  p.reason = field<std::string>(j, "reason", where);
  if (j.contains("mutant")) p.mutant = field<std::string>(j, "mutant", where);
  // Derived from the counts when read, but explain prints it as written: a boolean, or the file is refused.
  if (j.contains("discriminating")) field<bool>(j, "discriminating", where);
  if (j.contains("separate_because")) p.separate_because = field<std::string>(j, "separate_because", where);
  if (j.contains("tried")) {
    const json tried = field<json>(j, "tried", where);
    if (!tried.is_array()) throw InputError(where + ": 'tried' is not an array");
    for (const json& t : tried) {
      Power::Tried one;
      one.control = field<std::string>(t, "control", where + ": tried");
      one.mechanism = field<std::string>(t, "mechanism", where + ": tried");
      if (!parse_status(field<std::string>(t, "status", where + ": tried"), one.status))
        throw InputError(where + ": tried: unknown status '" + t.at("status").get<std::string>() + "'");
      one.instances = field<std::uint64_t>(t, "instances", where + ": tried");
      one.violations = field<std::uint64_t>(t, "violations", where + ": tried");
      one.reason = field<std::string>(t, "reason", where + ": tried");
      // Results written before controls were timed have neither.
      if (t.contains("seconds")) one.seconds = field<double>(t, "seconds", where + ": tried");
      if (t.contains("compile_wait_seconds")) one.compile_wait_seconds = field<double>(t, "compile_wait_seconds", where + ": tried");
      p.tried.push_back(std::move(one));
    }
  }
  return p;
}

}  // namespace

CaseResult result_from_json(const json& j, const std::string& source) {
  CaseResult r;
  r.name = field<std::string>(j, "name", source);
  const std::string where = source + ": " + r.name;
  r.family = field<std::string>(j, "family", where);
  if (j.contains("pattern")) r.pattern = field<std::string>(j, "pattern", where);  // version 2
  if (j.contains("axes")) r.axes = axes_from_json(field<json>(j, "axes", where), where);
  if (!parse_status(field<std::string>(j, "status", where), r.status))
    throw InputError(where + ": unknown status '" + j.at("status").get<std::string>() + "'");
  if (!model::parse_expectation(field<std::string>(j, "expectation", where), r.expectation))
    throw InputError(where + ": unknown expectation '" + j.at("expectation").get<std::string>() + "'");
  r.histogram = histogram_from_json(field<json>(j, "histogram", where), where);
  r.weak = field<std::uint64_t>(j, "weak", where);
  r.instances = field<std::uint64_t>(j, "instances", where);
  r.seconds = field<double>(j, "seconds", where);
  r.gpu_seconds = field<double>(j, "gpu_seconds", where);
  if (j.contains("compile_seconds")) r.compile_seconds = field<double>(j, "compile_seconds", where);
  if (j.contains("compile_wait_seconds")) r.compile_wait_seconds = field<double>(j, "compile_wait_seconds", where);
  r.reason = field<std::string>(j, "reason", where);
  if (j.contains("judged")) r.judged = field<std::uint64_t>(j, "judged", where);
  if (j.contains("power")) r.power = power_from_json(field<json>(j, "power", where), where + ": power");
  if (j.contains("rule")) r.rule = field<std::string>(j, "rule", where);
  if (j.contains("citation")) r.citation = field<std::string>(j, "citation", where);
  if (j.contains("original_status")) {
    Status original;
    if (!parse_status(field<std::string>(j, "original_status", where), original))
      throw InputError(where + ": unknown original_status '" + j.at("original_status").get<std::string>() + "'");
    r.original_status = original;
  }
  if (j.contains("note")) r.note = field<std::string>(j, "note", where);
  return r;
}

Budget budget_from_json(const json& j, const std::string& source) {
  Budget b;
  b.instances = field<std::uint64_t>(j, "instances", source);
  b.iterations = field<std::uint32_t>(j, "iterations", source);
  // Results from before row_launches ran their litmus rows over `iterations` launches.
  b.row_launches = j.contains("row_launches") ? field<std::uint32_t>(j, "row_launches", source) : b.iterations;
  b.op_words = field<std::uint64_t>(j, "op_words", source);
  if (j.contains("stress_params")) {
    b.stress = stress_params_from_json(j.at("stress_params"), source + ": stress_params");
    // Results from before a knob: their generated kernels warmed nothing, ran one role a thread, and
    // wrote a fresh word every round.
    const json& given = j.at("stress_params");
    if (!given.contains("warm_loads")) b.stress.warm_loads = StressParams::Warm::None;
    if (!given.contains("all_roles")) b.stress.all_roles = false;
    if (!given.contains("reuse_words")) b.stress.reuse_words = false;
    // Before row_spin_timeout_us, the rows' spins took the hand-written readers' bound.
    if (!given.contains("row_spin_timeout_us")) b.stress.row_spin_timeout_us = b.stress.spin_timeout_us;
    // Before row_word_order, every launch permuted its words.
    if (!given.contains("row_word_order")) b.stress.row_word_order = StressParams::WordOrder::Permuted;
    // Before distinct_addresses, a repeated address went through as it was.
    if (!given.contains("distinct_addresses")) b.stress.distinct_addresses = false;
  } else {  // results from before stress params: a flag, its access count and the block size
    if (field<bool>(j, "stress", source)) b.stress.pre_accesses = field<std::uint32_t>(j, "stress_accesses", source);
    b.stress.threads_per_block = field<std::uint32_t>(j, "threads_per_block", source);
    b.stress.spin_timeout_us = static_cast<std::uint32_t>(field<double>(j, "spin_timeout_ms", source) * 1000.0 + 0.5);
    b.stress.row_spin_timeout_us = b.stress.spin_timeout_us;
    b.stress.warm_loads = StressParams::Warm::None;
    b.stress.all_roles = false;
    b.stress.reuse_words = false;
    b.stress.row_word_order = StressParams::WordOrder::Permuted;
    b.stress.distinct_addresses = false;
  }
  if (j.contains("row_stress_params")) {
    b.row_stress = row_stress_from_json(j.at("row_stress_params"), source + ": row_stress_params");
    for (std::size_t i = 0; i < b.row_stress.size(); ++i) {
      const json& given = j.at("row_stress_params")[i].at("params");
      if (!given.contains("row_word_order")) b.row_stress[i].params.row_word_order = StressParams::WordOrder::Permuted;
      if (!given.contains("distinct_addresses")) b.row_stress[i].params.distinct_addresses = false;
    }
  }
  b.seed = field<std::uint64_t>(j, "seed", source);
  b.resident_timeout_ms = field<double>(j, "resident_timeout_ms", source);
  return b;
}

namespace {

// 13.0 -> 13000 (the inverse of device::format_version); 0 for "" (no driver).
int version_from(const std::string& text, const std::string& where) {
  if (text.empty()) return 0;
  const auto dot = text.find('.');
  try {
    return std::stoi(text.substr(0, dot)) * 1000 + (dot == std::string::npos ? 0 : std::stoi(text.substr(dot + 1)) * 10);
  } catch (const std::exception&) {
    throw InputError(where + ": '" + text + "' is not a CUDA version");
  }
}

RunContext context_from_json(const json& c, const std::string& where) {
  RunContext out;
  out.tool_version = field<std::string>(c, "tool_version", where);
  out.git_sha = field<std::string>(c, "git_sha", where);
  out.driver_version = version_from(field<std::string>(c, "driver", where), where + ".driver");
  out.driver_release = field<std::string>(c, "driver_release", where);
  out.runtime_version = version_from(field<std::string>(c, "cuda", where), where + ".cuda");
  const json devices = field<json>(c, "devices", where);
  if (!devices.is_array()) throw InputError(where + ": 'devices' is not a list");
  for (const json& d : devices)
    out.devices.push_back({field<int>(d, "index", where + ".devices"), field<std::string>(d, "name", where + ".devices"),
                           field<std::string>(d, "compute_capability", where + ".devices")});
  out.device = field<int>(c, "device", where);
  out.budget = budget_from_json(field<json>(c, "budget", where), where + ".budget");
  out.cases_path = field<std::string>(c, "cases_path", where);
  out.filter = field<std::string>(c, "filter", where);
  if (c.contains("caselist")) out.caselist = field<std::string>(c, "caselist", where);
  if (c.contains("shard")) {
    const json s = field<json>(c, "shard", where);
    out.shard = model::Shard{field<std::uint32_t>(s, "index", where + ".shard"), field<std::uint32_t>(s, "count", where + ".shard")};
  }
  out.started = field<std::string>(c, "started", where);
  if (c.contains("resumed")) out.resumed = field<std::vector<std::string>>(c, "resumed", where);
  return out;
}

}  // namespace

StoredRun read_results(const std::filesystem::path& path) {
  const std::string source = path.string();
  const std::string text = read_input_file(path, "a results file");
  refuse_too_deep_json(text, source, "a results file");
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // malformed, or a number no double holds (out_of_range.406)
    throw InputError(source + ": not a JSON results file (" + e.what() + ")");
  }
  try {
    return stored_run_of(doc, source);
  } catch (const json::exception& e) {  // a field of the wrong type deep inside: still the file's problem
    throw InputError(source + ": not a results file vmmcheck reads (" + e.what() + ")");
  }
}

StoredRun stored_run_of(const json& doc, const std::string& source) {
  StoredRun run;
  const int version = field<int>(doc, "schema_version", source);
  if (version < 1 || version > kSchemaVersion)
    throw InputError(source + ": schema_version " + std::to_string(version) + " is not one this vmmcheck reads (1 to " +
                     std::to_string(kSchemaVersion) + ")");
  const json context = field<json>(doc, "context", source);
  run.context_block = context;
  run.context = context_from_json(context, source + ": context");
  const json results = field<json>(doc, "results", source);
  if (!results.is_array()) throw InputError(source + ": 'results' is not a list");
  for (const json& r : results) run.results.push_back(result_from_json(r, source));
  return run;
}

json results_document(const RunContext& c, const std::vector<CaseResult>& results) {
  return results_document(to_json(c), results, c.expectations);
}

json results_document(const json& context, const std::vector<CaseResult>& results,
                      const std::vector<std::pair<std::string, std::string>>& expectations) {
  json list = json::array();
  json totals = {{"Pass", 0},    {"Fail", 0},  {"NotSupported", 0}, {"Crash", 0},
                 {"Timeout", 0}, {"Error", 0}, {"Warning", 0}};
  for (const CaseResult& r : results) {
    list.push_back(to_json(r));
    totals[to_string(r.status)] = totals.value(to_string(r.status), 0) + 1;
  }
  json doc{{"schema_version", kSchemaVersion}, {"context", context}, {"totals", totals}, {"results", list}};
  if (!expectations.empty()) {
    json files = json::object();
    for (const auto& [kind, path] : expectations) files[kind] = path.empty() ? json(nullptr) : json(path);
    doc["expectations"] = files;
  }
  return doc;
}

namespace {

// Invalid UTF-8 (from a child's output, a path) is replaced rather than failing the whole file.
std::string document_text(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

void write_text(const std::filesystem::path& given, const std::string& text) {
  // Through a symbolic link, the file it names is replaced, never the link; and a stale PATH.partial (a
  // killed run's, or a link) is removed, not opened, so nothing it points to is truncated.
  std::error_code link_ec;
  const bool link = std::filesystem::is_symlink(std::filesystem::symlink_status(given, link_ec));
  std::filesystem::path path = given;
  if (link) {  // a link of links, or one to a file not made yet: what it names, followed to the end
    const std::filesystem::path target = std::filesystem::read_symlink(given, link_ec);
    path = std::filesystem::weakly_canonical(target.is_absolute() ? target : given.parent_path() / target, link_ec);
  }
  if (link && link_ec) throw InputError(given.string() + ": cannot follow the link: " + link_ec.message());
  const std::filesystem::path tmp = path.string() + ".partial";
  std::error_code stale_ec;
  std::filesystem::remove(tmp, stale_ec);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path.string() + ": cannot write the JSON results");
    out << text << '\n';
    out.flush();  // then the rename: a reader (or a resumed run) sees the old file or the new, never half
    if (!out) throw InputError(path.string() + ": writing the JSON results failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);  // nothing half-written is left beside the path
    throw InputError(path.string() + ": cannot replace the JSON results: " + ec.message());
  }
}

}  // namespace

void write_results(const std::filesystem::path& path, const json& document) { write_text(path, document_text(document)); }

ResultsFile::ResultsFile(std::filesystem::path path, json context, std::vector<std::pair<std::string, std::string>> expectations)
    : path_(std::move(path)), context_(std::move(context)), expectations_(std::move(expectations)) {}

void ResultsFile::add(const CaseResult& r) {
  CaseResult status_only;
  status_only.status = r.status;
  counted_.push_back(std::move(status_only));
  // An element of "results" sits two levels in: every line of its own text indented four more spaces (a
  // newline inside a string is escaped, so every newline is one of the layout's).
  std::string text = document_text(to_json(r));
  std::string nested = "    ";
  for (char ch : text) {
    nested += ch;
    if (ch == '\n') nested += "    ";
  }
  results_ += (results_.empty() ? "" : ",\n") + nested;
}

std::string ResultsFile::text() const {
  // The document of the statuses (its totals) with its list emptied, then the texts spliced in where
  // dump(2) puts "[]" (a "results" key inside a string of the context would have escaped quotes).
  json doc = results_document(context_, counted_, expectations_);
  doc["results"] = json::array();
  const std::string out = document_text(doc);
  if (results_.empty()) return out;
  const std::string empty = "\"results\": []";
  const std::size_t at = out.find(empty);
  return out.substr(0, at) + "\"results\": [\n" + results_ + "\n  ]" + out.substr(at + empty.size());
}

void ResultsFile::write() const { write_text(path_, text()); }

}  // namespace vmmcheck::run
