#include "run/records/provenance.hpp"

#include <algorithm>
#include <sstream>

#include "common/paths.hpp"

namespace vmmcheck::run {
namespace {

// Each comma-separated path resolved as this process sees it (cli/cases.hpp writes them resolved already;
// a file from before did not).
std::vector<std::string> resolved_paths(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string p; std::getline(in, p, ',');)
    if (!p.empty()) out.push_back(resolved_path(p));
  return out;
}

std::string driver_text(const RunContext& c) {
  if (c.driver_version == 0 && c.driver_release.empty()) return "no driver";
  return "driver " + (c.driver_release.empty() ? std::string("(release unknown)") : c.driver_release) + " (CUDA " +
         (c.driver_version ? device::format_version(c.driver_version) : std::string("?")) + ")";
}

// The per-row knobs, each entry's globs and knobs ("" without any): two budgets may differ only there.
std::string row_stress_text(const std::vector<RowStress>& rows) {
  std::string text;
  for (const RowStress& r : rows) text += "; rows " + r.rows + ": " + describe(r.params);
  return rows.empty() ? "" : ", per-row knobs" + text.substr(1);
}

std::string budget_text(const Budget& b) {
  return std::to_string(b.instances) + " instances, " + std::to_string(b.iterations) + " iterations, " +
         std::to_string(b.row_launches) + " launches a litmus row, " + std::to_string(b.op_words) + " op words, seed " +
         std::to_string(b.seed) + ", " + describe(b.stress) + row_stress_text(b.row_stress);
}

// Two spellings of one commit: the same sha, or one an abbreviation of the other (7 and 12 hex digits).
bool same_commit(const std::string& a, const std::string& b) {
  const std::size_t n = std::min(a.size(), b.size());
  return a == b || (n >= 7 && a.compare(0, n, b, 0, n) == 0);
}

std::string quoted(const std::string& s) { return s.empty() ? "none" : "'" + s + "'"; }

}  // namespace

std::string devices_text(const std::vector<DeviceSummary>& devices) {
  if (devices.empty()) return "no GPU";
  bool alike = true;
  for (const DeviceSummary& d : devices) alike = alike && d.name == devices.front().name;
  if (alike) return std::to_string(devices.size()) + " x " + devices.front().name;
  std::string text;
  for (const DeviceSummary& d : devices) text += (text.empty() ? "" : " + ") + d.name;
  return text;
}

std::vector<std::string> resume_mismatches(const RunContext& file, const RunContext& here) {
  std::vector<std::string> out;
  const auto differ = [&](bool different, const std::string& what, const std::string& theirs, const std::string& ours) {
    if (different) out.push_back(what + ": that run had " + theirs + ", this one has " + ours);
  };
  std::vector<std::string> file_names, here_names;
  for (const DeviceSummary& d : file.devices) file_names.push_back(d.name);
  for (const DeviceSummary& d : here.devices) here_names.push_back(d.name);
  if (file_names != here_names)
    out.push_back("the GPUs: that run had " + devices_text(file.devices) + ", this machine has " + devices_text(here.devices));
  differ(file.driver_version != here.driver_version || file.driver_release != here.driver_release, "the driver",
         driver_text(file), driver_text(here));
  differ(file.tool_version != here.tool_version || !same_commit(file.git_sha, here.git_sha), "vmmcheck",
         file.tool_version + " (git " + file.git_sha + ")", here.tool_version + " (git " + here.git_sha + ")");
  differ(resolved_paths(file.cases_path) != resolved_paths(here.cases_path), "the case tables (--cases)",
         quoted(file.cases_path), quoted(here.cases_path));
  differ(file.filter != here.filter, "--filter", quoted(file.filter), quoted(here.filter));
  differ(file.caselist != here.caselist, "--caselist", quoted(file.caselist), quoted(here.caselist));
  differ(file.shard != here.shard, "--shard", file.shard ? model::to_string(*file.shard) : "none",
         here.shard ? model::to_string(*here.shard) : "none");
  differ(file.device != here.device, "--device", std::to_string(file.device), std::to_string(here.device));
  differ(file.budget != here.budget, "the budget (--iterations, --instances, --row-launches, --op-words, --seed, stress params)",
         budget_text(file.budget), budget_text(here.budget));
  return out;
}

}  // namespace vmmcheck::run
