#pragma once
// What every subcommand that runs cases shares: where the case tables are, and this program's path for
// the children it starts.
#include <filesystem>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "litmus/file.hpp"
#include "model/loader.hpp"

namespace vmmcheck::cli {

std::vector<std::filesystem::path> case_paths(const Options& o);  // --cases, or the shipped tables
model::CaseTable load(const Options& o);
std::string cases_path_text(const Options& o);                      // as the results' context records it
std::string self_program();                                         // /proc/self/exe, or "vmmcheck"

// The litmus rows a run runs (docs/litmus.md): those of --litmus, or else of the litmus/ folder beside the
// case tables (the shipped cases/litmus); the filter applies to their names (litmus.<row>). A malformed
// file is an InputError (path:line:column).
std::vector<litmus::Row> litmus_rows(const Options& o);

}  // namespace vmmcheck::cli
