#include "cli/cases.hpp"

#include "common/error.hpp"
#include "litmus/folder.hpp"
#include "model/select.hpp"
#include "run/litmus/row_result.hpp"

namespace vmmcheck::cli {

std::vector<std::filesystem::path> case_paths(const Options& o) {
  if (o.cases.empty()) return {model::default_cases_path()};
  return {o.cases.begin(), o.cases.end()};
}

model::CaseTable load(const Options& o) { return model::load_cases(case_paths(o)); }

std::string cases_path_text(const Options& o) {
  std::string text;
  for (const auto& p : case_paths(o)) text += (text.empty() ? "" : ",") + p.string();
  return text;
}

std::vector<litmus::Row> litmus_rows(const Options& o) {
  std::vector<std::filesystem::path> paths(o.litmus.begin(), o.litmus.end());
  if (paths.empty())
    for (const auto& p : case_paths(o))
      if (std::filesystem::is_directory(p / "litmus")) paths.push_back(p / "litmus");
  std::vector<litmus::Row> rows;
  try {
    for (litmus::Row& row : litmus::rows_of(litmus::parse_paths(paths)))
      if (model::filter_selects(o.filter, run::case_name_of(row))) rows.push_back(std::move(row));
  } catch (const std::runtime_error& e) {  // ParseError included: path:line:column: what was expected
    throw InputError(e.what());
  }
  return rows;
}

std::string self_program() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "vmmcheck" : self.string();
}

}  // namespace vmmcheck::cli
