#pragma once
// What every subcommand that runs or lists cases shares: where the case tables and litmus files are, what
// --filter, --caselist and --shard select of them, where --json goes, and this program's path for the
// children it starts.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/options.hpp"
#include "litmus/file.hpp"
#include "model/loader.hpp"
#include "model/select.hpp"
#include "litmus/rows.hpp"

namespace vmmcheck::cli {

std::vector<std::filesystem::path> case_paths(const Options& o);  // --cases, or the shipped tables
model::CaseTable load(const Options& o);
// The case paths as the results' context records them: each resolved (absolute, no `..`, no trailing
// '/'), comma-separated -- so `cases/` and `./cases` are one place when a run is resumed.
std::string cases_path_text(const Options& o);
std::string self_program();                                         // /proc/self/exe, or "vmmcheck"

// Where the litmus rows come from: --litmus's files and folders, or else the litmus/ folder beside the
// case tables (the shipped cases/litmus).
std::vector<std::filesystem::path> litmus_paths(const Options& o);
// Every litmus row there is (docs/litmus.md), of litmus_paths. A malformed file is an InputError
// (path:line:column).
std::vector<litmus::Row> all_litmus_rows(const Options& o);
// Throws InputError when `row` stands for a case (`case NAME`) that the tables still have: a retired
// family's table goes, and one name cannot mean two things.
void refuse_case_twice(const litmus::Row& row, const model::CaseTable& table);

// What --filter, --caselist and --shard select: the cases (none with run --litmus: those files alone) and
// the litmus rows. A case list line that names no case or row there is is an InputError (file:line).
struct Selected {
  model::Selection selection;
  std::vector<const model::Case*> cases;
  std::vector<litmus::Row> rows;
  std::vector<std::string> known;  // every case and litmus row name there is, selected or not
};
Selected select(const Options& o, const model::CaseTable& table);
// What --filter, --caselist and --shard were, for "no case matches ...".
std::string selection_text(const Options& o);

// Every file the command reads that the user could also name as an output: the case tables, the litmus
// files (and a litmus folder's stress-params.json), --caselist, --baseline with its -flakes and -skips
// files, --stress-params, --results, tune's --start files. A folder stands for the files in it its loader
// reads.
std::vector<std::filesystem::path> input_files(const Options& o);

// Where --json [FILE] goes: stdout, or FILE -- never over a document of another kind, nor over one of the
// command's inputs (run/records/output_file.hpp).
void claim_json(const Options& o, const std::string& kind);
void emit_json(const Options& o, const nlohmann::ordered_json& doc, std::ostream& out);

}  // namespace vmmcheck::cli
