#include "cli/model_cmd.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

#include "cli/app.hpp"
#include "common/text.hpp"
#include "codegen/generator.hpp"
#include "common/error.hpp"
#include "litmus/folder.hpp"
#include "litmus/rows.hpp"
#include "model/ptx_model.hpp"
#include "run/records/output_file.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::cli {
namespace {

std::vector<litmus::Row> rows_named(const Options& o) {
  std::vector<std::filesystem::path> paths(o.litmus.begin(), o.litmus.end());
  try {
    return litmus::rows_of(litmus::parse_paths(paths));
  } catch (const litmus::ParseError& e) {
    throw InputError(e.what());
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f) throw InputError(path.string() + ": cannot write");
}

// --kernels DIR, before any work: the folder and the headers every kernel includes, so that a path no
// folder can be made at (a file where a folder goes) is refused now, not after every row is decided.
void write_kernel_headers(const std::filesystem::path& dir) {
  for (const codegen::Header& h : codegen::kernel_headers()) {
    std::error_code ec;
    std::filesystem::create_directories((dir / h.name).parent_path(), ec);
    if (ec) throw InputError("--kernels " + dir.string() + ": cannot make " + (dir / h.name).parent_path().string() + ": " + ec.message());
    write_text(dir / h.name, h.text);
  }
}

// --kernels DIR: each generated source once (rows of one test share it), beside the headers.
void write_kernels(const std::vector<litmus::Row>& rows, const std::filesystem::path& dir, std::ostream& out) {
  std::set<std::string> written;
  for (const litmus::Row& row : rows) {
    if (const std::string why = codegen::why_not_generated(row.test); !why.empty()) {
      out << litmus::case_name_of(row) << ": no kernel: " << why << "\n";
      continue;
    }
    const codegen::Kernel k = codegen::generate(row.test);
    if (written.insert(k.name).second) write_text(dir / (k.name + ".cu"), k.source);
  }
  out << written.size() << " kernel sources in " << dir.string() << "\n";
}

}  // namespace

int cmd_model(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.litmus.empty()) throw InputError("model needs litmus files or folders");
  const bool json_to_stdout = o.json_given && (o.json.empty() || o.json == "-");
  if (o.json_given && !json_to_stdout) run::claim_output(o.json, "model", litmus::input_files_of({o.litmus.begin(), o.litmus.end()}));
  // The console: every row without --json; with it, the rows against their file and the summary still
  // (on stderr when the JSON goes to stdout), so a CI log says why the command exits 1.
  std::ostream& console = json_to_stdout ? err : out;
  // --kernels names a folder: a file there is refused before any work, not found at the end.
  std::error_code ec;
  if (!o.kernels_dir.empty() && std::filesystem::exists(o.kernels_dir, ec) && !std::filesystem::is_directory(o.kernels_dir, ec))
    throw InputError("--kernels " + o.kernels_dir + ": not a folder (the kernel sources go into one)");
  const std::vector<litmus::Row> rows = rows_named(o);
  if (rows.empty()) throw InputError("no litmus row in the files named (a file needs a permit, assert or check command)");
  if (!o.kernels_dir.empty()) write_kernel_headers(o.kernels_dir);
  std::size_t width = 0, against = 0, vacuous = 0;
  // Each row by the one name every command prints and takes (litmus.<file stem>.<command>, or the case it
  // stands for, as run, explain and the results spell it).
  for (const litmus::Row& r : rows) width = std::max(width, litmus::case_name_of(r).size());
  nlohmann::ordered_json doc{{"schema", "vmmcheck-model/1"}, {"rows", nlohmann::ordered_json::array()}};
  for (const litmus::Row& row : rows) {
    const litmus::RowVerdict v = litmus::verdict_of(row);
    against += !v.matches;
    vacuous += v.vacuous;
    const std::string asked = std::string(litmus::name_of(row.expect)) + " (" + model::ptx::to_string(row.condition) + ")";
    if (!o.json_given || !v.matches) {
      const std::string name = litmus::case_name_of(row);
      console << name << std::string(width + 2 - name.size(), ' ') << asked << ": " << litmus::answer_of(row, v)
              << (v.vacuous ? "   (vacuous: no ordering decides it)" : "")
              << (v.matches ? "" : "   AGAINST THE FILE (" + row.file + ":" + std::to_string(row.line) + ")") << "\n";
      if (o.verbose || !v.matches) console << indented(v.explanation, "    ") << "\n";
    }
    doc["rows"].push_back({{"name", litmus::case_name_of(row)},
                           {"file", row.file},
                           {"line", row.line},
                           {"expect", litmus::name_of(row.expect)},
                           {"condition", model::ptx::to_string(row.condition)},
                           {"model", litmus::answer_of(row, v)},
                           {"isa_allows", v.isa_allows},
                           {"artifact_allows", v.artifact_allows},
                           {"expectation", model::to_string(v.expectation)},
                           {"matches", v.matches},
                           {"vacuous", v.vacuous},
                           {"explanation", v.explanation}});
  }
  if (!o.kernels_dir.empty()) write_kernels(rows, o.kernels_dir, console);
  if (json_to_stdout) out << doc.dump(2) << "\n";
  else if (o.json_given) run::write_results(o.json, doc);
  console << rows.size() << " rows: " << rows.size() - against << " as the files say, " << against << " against"
          << (vacuous ? ", " + std::to_string(vacuous) + " vacuous" : "")
          << (o.json_given && !json_to_stdout ? "; verdicts in " + o.json : "") << "\n";
  return against == 0 ? kExitOk : kExitFailure;
}

}  // namespace vmmcheck::cli
