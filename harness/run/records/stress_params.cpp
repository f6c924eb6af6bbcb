#include "run/records/stress_params.hpp"

#include <array>
#include <sstream>
#include <vector>

#include "common/error.hpp"
#include "common/json_depth.hpp"
#include "common/paths.hpp"

namespace vmmcheck::run {
namespace {

using Json = nlohmann::ordered_json;
using kernels::StressPattern;

constexpr std::array<const char*, kernels::kStressPatterns> kPatternTokens = {"store-store", "store-load", "load-store",
                                                                              "load-load"};

const char* token(StressPattern p) { return kPatternTokens[static_cast<std::size_t>(p)]; }

constexpr std::array<const char*, 3> kWarmTokens = {"none", "weak", "all"};

const char* token(StressParams::Warm w) { return kWarmTokens[static_cast<std::size_t>(w)]; }

constexpr std::array<const char*, 3> kWordOrderTokens = {"permuted", "contiguous", "mixed"};

const char* token(StressParams::WordOrder o) { return kWordOrderTokens[static_cast<std::size_t>(o)]; }

StressParams::WordOrder word_order_of(const Json& v, const std::string& where) {
  for (std::size_t i = 0; i < kWordOrderTokens.size(); ++i)
    if (v.is_string() && v.get<std::string>() == kWordOrderTokens[i]) return static_cast<StressParams::WordOrder>(i);
  throw InputError(where + " must be one of permuted, contiguous, mixed (" + v.dump() + ")");
}

// "none", "weak" or "all"; true and false as results and params files before "all" wrote them ("weak", "none").
StressParams::Warm warm_of(const Json& v, const std::string& where) {
  if (v.is_boolean()) return v.get<bool>() ? StressParams::Warm::Weak : StressParams::Warm::None;
  for (std::size_t i = 0; i < kWarmTokens.size(); ++i)
    if (v.is_string() && v.get<std::string>() == kWarmTokens[i]) return static_cast<StressParams::Warm>(i);
  throw InputError(where + " must be one of none, weak, all (" + v.dump() + ")");
}

std::uint32_t bounded(const Json& v, const std::string& where, std::uint32_t lo, std::uint32_t hi) {
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lo || v.get<std::uint64_t>() > hi)
    throw InputError(where + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (" +
                     v.dump() + ")");
  return v.get<std::uint32_t>();
}

bool boolean(const Json& v, const std::string& where) {
  if (!v.is_boolean()) throw InputError(where + " must be true or false (" + v.dump() + ")");
  return v.get<bool>();
}

}  // namespace

bool operator==(const StressParams& a, const StressParams& b) { return to_json(a) == to_json(b); }

StressParams stress_preset() {
  StressParams p;
  p.pre_accesses = 4;
  return p;
}

Json to_json(const StressParams& p) {
  return Json{{"pre_accesses", p.pre_accesses},
              {"stress_blocks_percent", p.stress_blocks_percent},
              {"stress_accesses", p.stress_accesses},
              {"lines", p.lines},
              {"pattern", token(p.pattern)},
              {"barrier", p.barrier},
              {"threads_per_block", p.threads_per_block},
              {"spin_timeout_us", p.spin_timeout_us},
              {"row_spin_timeout_us", p.row_spin_timeout_us},
              {"warm_loads", token(p.warm_loads)},
              {"all_roles", p.all_roles},
              {"reuse_words", p.reuse_words},
              {"loads_before_stores", p.loads_before_stores},
              {"distinct_addresses", p.distinct_addresses},
              {"grid_barrier", p.grid_barrier},
              {"row_ctas_per_sm", p.row_ctas_per_sm},
              {"row_threads_per_block", p.row_threads_per_block},
              {"row_rounds_per_launch", p.row_rounds_per_launch},
              {"row_launches", p.row_launches},
              {"row_word_order", token(p.row_word_order)}};
}

StressParams stress_params_from_json(const Json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source + ": stress params must be a JSON object");
  StressParams p;
  for (const auto& [key, v] : j.items()) {
    const std::string where = source + ": '" + key + "'";
    if (key == "pre_accesses") p.pre_accesses = bounded(v, where, 0, 256);
    else if (key == "stress_blocks_percent") p.stress_blocks_percent = bounded(v, where, 0, 75);
    else if (key == "stress_accesses") p.stress_accesses = bounded(v, where, 0, 256);
    else if (key == "lines") p.lines = bounded(v, where, 1, 8192);
    else if (key == "barrier") p.barrier = boolean(v, where);
    // Retired: partners re-drawn every round, read only by the hand-written in-kernel kernels (every
    // generated launch permutes its CTAs, lanes and words afresh); older params and results files carry it.
    else if (key == "shuffle") boolean(v, where);
    else if (key == "warm_loads") p.warm_loads = warm_of(v, where);
    else if (key == "all_roles") p.all_roles = boolean(v, where);
    else if (key == "reuse_words") p.reuse_words = boolean(v, where);
    else if (key == "loads_before_stores") p.loads_before_stores = boolean(v, where);
    else if (key == "distinct_addresses") p.distinct_addresses = boolean(v, where);
    else if (key == "grid_barrier") p.grid_barrier = boolean(v, where);
    else if (key == "row_ctas_per_sm") p.row_ctas_per_sm = bounded(v, where, 1, 32);
    else if (key == "row_threads_per_block") p.row_threads_per_block = bounded(v, where, 0, 1024);
    else if (key == "row_rounds_per_launch") p.row_rounds_per_launch = bounded(v, where, 0, 1'000'000);
    else if (key == "row_launches") p.row_launches = bounded(v, where, 0, 1'000'000);
    else if (key == "row_word_order") p.row_word_order = word_order_of(v, where);
    else if (key == "spin_timeout_us") p.spin_timeout_us = bounded(v, where, 1, 10'000'000);
    else if (key == "row_spin_timeout_us") p.row_spin_timeout_us = bounded(v, where, 1, 10'000'000);
    else if (key == "threads_per_block") {
      p.threads_per_block = bounded(v, where, 64, 1024);
      if (p.threads_per_block % 32 != 0) throw InputError(where + " must be a multiple of 32");
    } else if (key == "pattern") {
      bool found = false;
      for (std::size_t i = 0; i < kPatternTokens.size(); ++i)
        if (v.is_string() && v.get<std::string>() == kPatternTokens[i]) {
          p.pattern = static_cast<StressPattern>(i);
          found = true;
        }
      if (!found) throw InputError(where + " must be one of store-store, store-load, load-store, load-load (" + v.dump() + ")");
    } else {
      throw InputError(where + " is not a stress knob (pre_accesses, stress_blocks_percent, stress_accesses, lines, "
                               "pattern, barrier, threads_per_block, spin_timeout_us, row_spin_timeout_us, warm_loads, all_roles, reuse_words, loads_before_stores, distinct_addresses, grid_barrier, row_ctas_per_sm, "
                               "row_threads_per_block, row_rounds_per_launch, row_launches, row_word_order)");
    }
  }
  return p;
}

std::string describe(const StressParams& p) {
  const StressParams d;
  std::ostringstream o;
  const char* sep = "";
  const auto item = [&](const std::string& text) {
    o << sep << text;
    sep = ", ";
  };
  if (p.pre_accesses) item("pre-stress " + std::to_string(p.pre_accesses));
  if (p.stress_blocks_percent)
    item("stress CTAs " + std::to_string(p.stress_blocks_percent) + "% x " + std::to_string(p.stress_accesses));
  if ((p.pre_accesses || p.stress_blocks_percent) && (p.lines != d.lines || p.pattern != d.pattern))
    item(std::to_string(p.lines) + " lines " + token(p.pattern));
  if (p.barrier) item("barrier");
  if (p.threads_per_block != d.threads_per_block) item(std::to_string(p.threads_per_block) + " threads/CTA");
  if (p.spin_timeout_us != d.spin_timeout_us) item("spin " + std::to_string(p.spin_timeout_us) + " us");
  if (p.row_spin_timeout_us != d.row_spin_timeout_us) item("row spin " + std::to_string(p.row_spin_timeout_us) + " us");
  if (p.warm_loads != d.warm_loads) item(std::string("warm loads ") + token(p.warm_loads));
  if (p.all_roles != d.all_roles) item(p.all_roles ? "every role a thread" : "one role a thread");
  if (p.reuse_words != d.reuse_words) item(p.reuse_words ? "values by round" : "a fresh word every round");
  if (p.loads_before_stores != d.loads_before_stores)
    item(p.loads_before_stores ? "stores after loads" : "stores overlap loads");
  if (p.distinct_addresses != d.distinct_addresses)
    item(p.distinct_addresses ? "distinct addresses" : "repeated addresses as they are");
  if (p.grid_barrier != d.grid_barrier) item(p.grid_barrier ? "grid barrier" : "no grid barrier");
  if (p.row_ctas_per_sm != d.row_ctas_per_sm) item("row CTAs/SM " + std::to_string(p.row_ctas_per_sm));
  if (p.row_threads_per_block != d.row_threads_per_block) item("row threads/CTA " + std::to_string(p.row_threads_per_block));
  if (p.row_rounds_per_launch != d.row_rounds_per_launch) item("row rounds/launch " + std::to_string(p.row_rounds_per_launch));
  if (p.row_launches != d.row_launches) item("row launches " + std::to_string(p.row_launches));
  if (p.row_word_order != d.row_word_order) item(std::string("row words ") + token(p.row_word_order));
  const std::string text = o.str();
  return text.empty() ? "off" : text;
}

// A params file's JSON, read once by each of its readers below: a document of another kind (a results
// file named by mistake) is refused by its "schema".
static Json params_file(const std::string& path) {
  const std::string text = read_input_file(path, "a stress params file");
  // A value nested thousands deep overflowed the stack when its message printed it (dump recurses).
  refuse_too_deep_json(text, path, "a stress params file");
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {  // malformed, or a number no double holds (out_of_range.406)
    throw InputError(path + ": not JSON: " + e.what());
  }
  if (const auto s = j.is_object() ? j.find("schema") : j.end(); j.is_object() && s != j.end() && *s != "vmmcheck-stress-params/1")
    throw InputError(path + ": not a stress params file (its schema is " + s->dump() + ", not \"vmmcheck-stress-params/1\")");
  return j;
}

StressParams read_stress_params(const std::string& path) {
  const Json j = params_file(path);
  if (!j.is_object() || !j.contains("params"))
    throw InputError(path + ": a stress params file is an object with a 'params' object (written by vmmcheck tune)");
  return stress_params_from_json(j.at("params"), path);
}

nlohmann::ordered_json to_json(const std::vector<RowStress>& rows) {
  Json out = Json::array();
  for (const RowStress& r : rows) out.push_back(Json{{"rows", r.rows}, {"params", to_json(r.params)}});
  return out;
}

std::vector<RowStress> row_stress_from_json(const Json& j, const std::string& source) {
  if (!j.is_array()) throw InputError(source + ": 'rows' must be an array of {\"rows\": GLOBS, \"params\": {...}}");
  std::vector<RowStress> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string where = source + ": rows[" + std::to_string(i) + "]";
    const Json& e = j[i];
    if (!e.is_object() || !e.contains("rows") || !e.at("rows").is_string() || e.at("rows").get<std::string>().empty() ||
        !e.contains("params"))
      throw InputError(where + " must be {\"rows\": GLOBS, \"params\": {...}}");
    for (const auto& [key, v] : e.items())
      if (key != "rows" && key != "params" && key != "why")
        throw InputError(where + ": '" + key + "' is not a key of an entry (rows, params, why)");
    // Comma-separated globs, as --filter takes them: an empty one (",,", a trailing comma) is a typo.
    const std::string globs = e.at("rows").get<std::string>();
    std::size_t start = 0;
    for (std::size_t comma = globs.find(','); ; comma = globs.find(',', start)) {
      const std::string glob = globs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (glob.find_first_not_of(" \t") == std::string::npos)
        throw InputError(where + ": 'rows' '" + globs + "' has an empty glob (comma-separated globs over row names)");
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    out.push_back({globs, stress_params_from_json(e.at("params"), where)});
  }
  return out;
}

std::vector<RowStress> read_row_stress(const std::string& path) {
  const Json j = params_file(path);
  if (!j.is_object() || !j.contains("rows")) return {};
  return row_stress_from_json(j.at("rows"), path);
}

StressParams random_stress_params(std::mt19937_64& rng) {
  const auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
    return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
  };
  const auto coin = [&](int percent) { return pick(1, 100) <= static_cast<std::uint32_t>(percent); };
  StressParams p;
  p.pre_accesses = coin(50) ? pick(1, 64) : 0;
  p.stress_blocks_percent = coin(50) ? pick(5, 75) : 0;
  p.stress_accesses = pick(1, 128);
  p.lines = 1u << pick(0, 13);
  p.pattern = static_cast<StressPattern>(pick(0, kernels::kStressPatterns - 1));
  p.barrier = coin(50);
  p.threads_per_block = 64u << pick(0, 4);
  constexpr std::array<std::uint32_t, 10> kSpinsUs = {1, 5, 10, 20, 50, 100, 200, 500, 1000, 5000};
  if (coin(50)) p.row_spin_timeout_us = kSpinsUs[pick(0, kSpinsUs.size() - 1)];
  p.warm_loads = static_cast<StressParams::Warm>(pick(0, 2));
  p.all_roles = coin(70);
  p.reuse_words = coin(70);
  p.grid_barrier = coin(50);
  constexpr std::array<std::uint32_t, 5> kCtasPerSm = {1, 2, 4, 8, 16};
  p.row_ctas_per_sm = kCtasPerSm[pick(0, kCtasPerSm.size() - 1)];
  constexpr std::array<std::uint32_t, 6> kRowThreads = {16, 22, 32, 48, 64, 128};
  if (coin(50)) p.row_threads_per_block = kRowThreads[pick(0, kRowThreads.size() - 1)];
  if (coin(50)) p.row_rounds_per_launch = 1u << pick(0, 3);
  if (coin(30)) p.row_launches = 1u << pick(0, 3);
  p.row_word_order = static_cast<StressParams::WordOrder>(pick(0, 2));
  p.loads_before_stores = coin(20);  // last: the draws before it stay what a seed drew before the knob
  p.distinct_addresses = coin(80);   // after it, for the same reason
  return p;
}

StressParams as_rows_read(const StressParams& p) {
  const StressParams d;
  StressParams out = p;
  out.spin_timeout_us = d.spin_timeout_us;
  if (p.row_threads_per_block != 0) out.threads_per_block = d.threads_per_block;
  return out;
}

StressParams refined_stress_params(const StressParams& p, std::mt19937_64& rng) {
  // The knobs are to_json's keys, so a knob added there is refined too.
  const Json from = to_json(p);
  const std::string seen = describe(as_rows_read(p));
  for (;;) {
    const Json drawn = to_json(random_stress_params(rng));
    std::vector<std::string> differ;
    for (const auto& [key, v] : drawn.items())
      if (from.at(key) != v) differ.push_back(key);
    if (differ.empty()) continue;
    Json next = from;
    const std::string& key = differ[std::uniform_int_distribution<std::size_t>(0, differ.size() - 1)(rng)];
    next[key] = drawn.at(key);
    const StressParams n = stress_params_from_json(next, "a refined draw");
    if (describe(as_rows_read(n)) != seen) return n;
  }
}

}  // namespace vmmcheck::run
