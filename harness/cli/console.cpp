#include "cli/console.hpp"

#include <cstdio>
#include <sstream>

#include "run/records/baseline.hpp"

namespace vmmcheck::cli {

std::string human_count(std::uint64_t n) {
  char buf[32];
  if (n >= 10'000'000'000ull) std::snprintf(buf, sizeof buf, "%.0fG", n / 1e9);
  else if (n >= 1'000'000'000ull) std::snprintf(buf, sizeof buf, "%.1fG", n / 1e9);
  else if (n >= 10'000'000ull) std::snprintf(buf, sizeof buf, "%.0fM", n / 1e6);
  else if (n >= 1'000'000ull) std::snprintf(buf, sizeof buf, "%.1fM", n / 1e6);
  else if (n >= 10'000ull) std::snprintf(buf, sizeof buf, "%.0fk", n / 1e3);
  else std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n));
  return buf;
}

std::string histogram_summary(const run::Histogram& h) {
  std::string s;
  for (const auto& [outcome, count] : h) {
    if (count == 0) continue;
    if (!s.empty()) s += " ";
    s += outcome + "=" + human_count(count);
  }
  return s.empty() ? "-" : s;
}

std::string case_line(std::size_t index, std::size_t total, const run::CaseResult& r) {
  // Statuses as the results spell them, shortened to seven letters: NotSupported (this machine cannot run
  // it) is not a baseline's Skip (the baseline says not to run it).
  static const char* labels[] = {"PASS", "FAIL", "NOT-SUP", "CRASH", "TIMEOUT", "ERROR", "WARN", "XFAIL", "FLAKE", "SKIP", "XPASS"};
  const char* label = labels[static_cast<int>(r.status)];
  std::ostringstream o;
  const int width = static_cast<int>(std::to_string(total).size());
  char prefix[64];
  std::snprintf(prefix, sizeof prefix, "[%*zu/%zu] %-7s ", width, index, total, label);
  o << prefix << r.name;
  if (r.status == run::Status::Skip) {
    o << "  (" << r.note << ")";
    return o.str();
  }
  if (r.status == run::Status::NotSupported || r.status == run::Status::Error || r.status == run::Status::Crash ||
      r.status == run::Status::Timeout) {
    o << "  (" << r.reason << ")";
    return o.str();
  }
  o << "  " << model::to_string(r.expectation) << "  " << histogram_summary(r.histogram);
  if (r.expectation == model::Expectation::Undefined && r.instances) {
    char weak[48];
    std::snprintf(weak, sizeof weak, "  weak %.3g%%", 100.0 * static_cast<double>(r.weak) / static_cast<double>(r.instances));
    o << weak;
  }
  char tail[96];
  std::snprintf(tail, sizeof tail, "  %s inst  %.3f s", human_count(r.instances).c_str(), r.seconds);
  o << tail;
  if (r.gpu_seconds > 0) o << "  " << human_count(static_cast<std::uint64_t>(static_cast<double>(r.instances) / r.gpu_seconds)) << "/s GPU";
  o << power_summary(r);
  if (r.status == run::Status::Fail || r.status == run::Status::Warning) o << "\n        " << r.reason;
  if (r.original_status) o << "\n        " << r.note;
  return o.str();
}

std::string power_summary(const run::CaseResult& r) {
  if (!r.power) return "";
  const run::Power& p = *r.power;
  std::ostringstream o;
  if (p.status != run::Status::Pass && p.status != run::Status::Fail) {
    o << "  power: unknown (control " << to_string(p.status) << ")";
  } else if (p.discriminating()) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.3g%%", 100.0 * static_cast<double>(p.violations) / static_cast<double>(p.instances));
    o << "  power: yes (without " << p.mechanism << ": " << rate << " forbidden)";
  } else {
    o << "  power: NO (without " << p.mechanism << ": 0 of " << human_count(p.instances) << " forbidden)";
  }
  // A row's controls: how many ran, and what they cost (their compile included).
  if (p.tried.size() > 1 || (!p.tried.empty() && p.tried.front().seconds > 0)) {
    double seconds = 0;
    for (const run::Power::Tried& t : p.tried) seconds += t.seconds;
    char cost[64];
    std::snprintf(cost, sizeof cost, " [%zu control%s, %.2f s]", p.tried.size(), p.tried.size() == 1 ? "" : "s", seconds);
    o << cost;
  }
  return o.str();
}

namespace {

void list_names(std::ostringstream& o, const char* label, const std::vector<std::string>& names) {
  if (names.empty()) return;
  constexpr std::size_t kShown = 12;
  o << label;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) o << " " << names[i];
  if (names.size() > kShown) o << " (+" << names.size() - kShown << " more in the JSON)";
  o << "\n";
}

}  // namespace

std::string power_lines(const run::PowerTally& t) {
  std::ostringstream o;
  if (t.required + t.fault > 0) {
    o << "power: " << t.required_discriminating << " of " << t.required << " required";
    if (t.fault) o << " and " << t.fault_discriminating << " of " << t.fault << " fault";
    o << " cases discriminating here (their controls showed a forbidden outcome)\n";
    list_names(o, "not discriminating:", t.not_discriminating);
  }
  if (t.rows > 0) {
    o << "power: " << t.rows_discriminating << " of " << t.rows
      << " litmus assert rows discriminating here (a control derived from the row, or named by its file, showed the "
         "outcome the row forbids)\n";
    list_names(o, "rows not discriminating:", t.rows_not_discriminating);
  }
  return o.str();
}

std::string header(const run::RunContext& c, std::size_t selected, std::size_t total, const std::string& gpu_note,
                   const std::vector<std::string>& litmus) {
  std::ostringstream o;
  o << "vmmcheck " << c.tool_version << " (git " << c.git_sha << ")";
  if (c.driver_version) o << "  driver " << device::format_version(c.driver_version);
  if (!c.driver_release.empty()) o << " (" << c.driver_release << ")";
  if (c.runtime_version) o << "  runtime " << device::format_version(c.runtime_version);
  o << "\n";
  if (c.devices.empty()) o << "device: none (" << gpu_note << ")\n";
  for (const run::DeviceSummary& d : c.devices)
    o << (d.index == c.device ? "device* " : "device  ") << d.index << ": " << d.name << " (compute capability "
      << d.compute_capability << ")\n";
  if (litmus.empty()) {
    o << "cases: " << c.cases_path;
  } else {
    o << "litmus:";
    for (const std::string& p : litmus) o << " " << p;
  }
  o << " (" << selected << " of " << total << (litmus.empty() ? "" : " rows") << " selected";
  if (!c.filter.empty()) o << " by '" << c.filter << "'";
  o << ")\n";
  const run::Budget& b = c.budget;
  o << "budget: " << human_count(b.instances) << " instances over " << b.iterations << " launches per in-kernel case, "
    << human_count(b.op_words) << " words x " << b.iterations << " per operation case, seed " << b.seed << ", stress "
    << run::describe(b.stress) << (b.certifying() ? "  [certifying]" : "  [reduced budget: NOT certifying]") << "\n";
  return o.str();
}

Tally tally(const std::vector<run::CaseResult>& results) {
  Tally t;
  for (const run::CaseResult& r : results) {
    switch (r.status) {
      case run::Status::Pass: ++t.passed; break;
      case run::Status::Warning: ++t.warnings; break;
      case run::Status::NotSupported:
      case run::Status::Skip: ++t.skipped; break;
      case run::Status::ExpectedFail:
      case run::Status::Flake: ++t.tolerated; break;
      default: t.failed += run::is_failure(r.status, false);  // Fail, Crash, Timeout, Error, UnexpectedPass
    }
  }
  return t;
}

std::string tally_line(const Tally& t) {
  return std::to_string(t.passed) + " passed, " + (t.warnings ? std::to_string(t.warnings) + " warnings, " : "") +
         (t.tolerated ? std::to_string(t.tolerated) + " expected by the baseline, " : "") + std::to_string(t.failed) +
         " failed, " + std::to_string(t.skipped) + " skipped";
}

std::string baseline_lines(const std::vector<run::CaseResult>& results) {
  std::size_t expected = 0, flakes = 0, skips = 0;
  std::vector<std::string> now_pass;
  for (const run::CaseResult& r : results) {
    if (r.status == run::Status::ExpectedFail) ++expected;
    else if (r.status == run::Status::Flake) ++flakes;
    else if (r.status == run::Status::Skip) ++skips;
    else if (r.status == run::Status::UnexpectedPass) now_pass.push_back(r.name);
  }
  if (expected + flakes + skips + now_pass.size() == 0) return "";
  std::ostringstream o;
  o << "baseline: " << expected << " expected failures, " << flakes << " flakes, " << skips << " skipped\n";
  if (!now_pass.empty()) {
    o << now_pass.size() << " listed case" << (now_pass.size() == 1 ? "" : "s")
      << " now pass (UnexpectedPass; remove from the baseline):";
    for (const std::string& name : now_pass) o << " " << name;
    o << "\n";
  }
  return o.str();
}

}  // namespace vmmcheck::cli
