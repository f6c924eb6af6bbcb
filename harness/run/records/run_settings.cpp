#include "run/records/run_settings.hpp"

#include "common/error.hpp"
#include "model/shard.hpp"

namespace vmmcheck::run {

Json to_json(const RunSettings& s) {
  Json selection{{"filter", s.selection.filter}};
  if (s.selection.caselist) selection["caselist"] = s.selection.caselist->path();
  if (s.selection.shard) selection["shard"] = model::to_string(*s.selection.shard);
  Json out{{"cases_paths", s.cases_paths},
           {"cases_path_text", s.cases_path_text},
           {"selection", selection},
           {"device", s.device},
           {"budget", to_json(s.budget)},
           {"allow_multicast", s.allow_multicast},
           {"mutant", s.mutant},
           {"program", s.program},
           {"isolate_all", s.isolate_all},
           {"timeout_ms", s.timeout.count()},
           {"power", s.power},
           {"deep_power", s.deep_power},
           {"rerun_unoptimized", s.rerun_unoptimized},
           {"json_file", s.json_file},
           {"resume_file", s.resume_file},
           {"tool_version", s.tool_version},
           {"git_sha", s.git_sha}};
  if (s.baseline)
    for (const auto& [kind, path] : s.baseline->files())
      if (kind == "fails") out["baseline"] = path;  // the others are read beside it
  return out;
}

RunSettings settings_from_json(const Json& j, const std::string& where) {
  try {
    RunSettings s;
    s.cases_paths = j.at("cases_paths").get<std::vector<std::string>>();
    s.cases_path_text = j.at("cases_path_text").get<std::string>();
    const Json& selection = j.at("selection");
    s.selection.filter = selection.at("filter").get<std::string>();
    if (selection.contains("caselist")) s.selection.caselist = model::Caselist::read(selection.at("caselist").get<std::string>());
    if (selection.contains("shard")) s.selection.shard = model::parse_shard(selection.at("shard").get<std::string>());
    s.device = j.at("device").get<int>();
    s.budget = budget_from_json(j.at("budget"), where);
    s.allow_multicast = j.at("allow_multicast").get<bool>();
    s.mutant = j.at("mutant").get<std::string>();
    s.program = j.at("program").get<std::string>();
    s.isolate_all = j.at("isolate_all").get<bool>();
    s.timeout = std::chrono::milliseconds(j.at("timeout_ms").get<long long>());
    s.power = j.at("power").get<bool>();
    s.deep_power = j.at("deep_power").get<bool>();
    s.rerun_unoptimized = j.at("rerun_unoptimized").get<bool>();
    s.json_file = j.at("json_file").get<std::string>();
    s.resume_file = j.at("resume_file").get<std::string>();
    s.tool_version = j.at("tool_version").get<std::string>();
    s.git_sha = j.at("git_sha").get<std::string>();
    if (j.contains("baseline")) s.baseline = Baseline::read(j.at("baseline").get<std::string>());
    return s;
  } catch (const Json::exception& e) {
    throw InputError(where + ": run settings: " + e.what());
  }
}

}  // namespace vmmcheck::run
