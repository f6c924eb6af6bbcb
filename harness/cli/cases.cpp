#include "cli/cases.hpp"

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

std::string self_program() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "vmmcheck" : self.string();
}

}  // namespace vmmcheck::cli
