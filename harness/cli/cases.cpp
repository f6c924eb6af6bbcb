#include "cli/cases.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/error.hpp"
#include "common/paths.hpp"
#include "litmus/folder.hpp"
#include "run/records/output_file.hpp"
#include "run/records/report_json.hpp"
#include "run/rows/row_result.hpp"

namespace vmmcheck::cli {

std::vector<std::filesystem::path> case_paths(const Options& o) {
  if (o.cases.empty()) return {model::default_cases_path()};
  return {o.cases.begin(), o.cases.end()};
}

model::CaseTable load(const Options& o) { return model::load_cases(case_paths(o)); }

std::string cases_path_text(const Options& o) {
  std::string text;
  for (const auto& p : case_paths(o)) text += (text.empty() ? "" : ",") + resolved_path(p);
  return text;
}

std::vector<std::filesystem::path> litmus_paths(const Options& o) {
  std::vector<std::filesystem::path> paths(o.litmus.begin(), o.litmus.end());
  if (paths.empty())
    for (const auto& p : case_paths(o))
      if (std::filesystem::is_directory(p / "litmus")) paths.push_back(p / "litmus");
  return paths;
}

std::vector<litmus::Row> all_litmus_rows(const Options& o) {
  try {
    return litmus::rows_of(litmus::parse_paths(litmus_paths(o)));
  } catch (const std::runtime_error& e) {  // ParseError included: path:line:column: what was expected
    throw InputError(e.what());
  }
}

void refuse_case_twice(const litmus::Row& row, const model::CaseTable& table) {
  if (row.case_name.empty() ||
      std::none_of(table.cases.begin(), table.cases.end(), [&](const model::Case& c) { return c.name == row.case_name; }))
    return;
  throw InputError(row.file + ":" + std::to_string(row.line) + ": row " + litmus::row_name_of(row) + " stands for the case " +
                   row.case_name + ", which the case tables have too (a retired family's table goes)");
}

Selected select(const Options& o, const model::CaseTable& table) {
  Selected s;
  s.selection.filter = o.filter;
  if (!o.shard.empty()) s.selection.shard = model::parse_shard(o.shard);
  std::vector<litmus::Row> rows = all_litmus_rows(o);
  for (const model::Case& c : table.cases) s.known.push_back(c.name);
  for (const litmus::Row& r : rows) {
    refuse_case_twice(r, table);
    s.known.push_back(litmus::case_name_of(r));
  }
  if (!o.caselist.empty()) {
    s.selection.caselist = model::Caselist::read(o.caselist);
    s.selection.caselist->check_against(s.known);
  }
  if (o.litmus.empty()) s.cases = model::select_cases_or_none(table.cases, s.selection);
  for (litmus::Row& row : rows)
    if (s.selection.selects(litmus::case_name_of(row))) s.rows.push_back(std::move(row));
  return s;
}

std::string selection_text(const Options& o) {
  std::string text = "the filter '" + o.filter + "'";
  if (!o.caselist.empty()) text += ", the case list " + o.caselist;
  if (!o.shard.empty()) text += ", shard " + o.shard;
  return text;
}

std::vector<std::filesystem::path> input_files(const Options& o) {
  namespace fs = std::filesystem;
  std::vector<fs::path> read = case_paths(o);
  for (const fs::path& p : litmus_paths(o)) read.push_back(p);
  std::vector<fs::path> files = litmus::input_files_of(read);
  for (const std::string& p : {o.caselist, o.stress_params, o.results})
    if (!p.empty()) files.emplace_back(p);
  for (const std::string& p : o.tune_start) files.emplace_back(p);
  if (!o.baseline.empty()) {
    files.emplace_back(o.baseline);
    const std::string name = fs::path(o.baseline).filename().string(), tail = "-fails.txt";
    if (name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0)
      for (const std::string kind : {"-flakes.txt", "-skips.txt"})
        files.push_back(fs::path(o.baseline).parent_path() / (name.substr(0, name.size() - tail.size()) + kind));
  }
  return files;
}

void claim_json(const Options& o, const std::string& kind) {
  if (o.json_given && !o.json.empty() && o.json != "-") run::claim_output(o.json, kind, input_files(o));
}

void emit_json(const Options& o, const nlohmann::ordered_json& doc, std::ostream& out) {
  if (o.json.empty() || o.json == "-") out << doc.dump(2) << "\n";
  else run::write_results(o.json, doc);
}

std::string self_program() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "vmmcheck" : self.string();
}

}  // namespace vmmcheck::cli
