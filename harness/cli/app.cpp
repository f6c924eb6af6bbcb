#include "cli/app.hpp"

#include <algorithm>
#include <stdexcept>

#include "cli/cases.hpp"
#include "cli/command_line.hpp"
#include "cli/explain.hpp"
#include "cli/gpu_commands.hpp"
#include "cli/list_json.hpp"
#include "cli/model_cmd.hpp"
#include "cli/options.hpp"
#include "cli/run_settings.hpp"
#include "common/error.hpp"
#include "common/text.hpp"
#include "litmus/rows.hpp"
#include "model/loader.hpp"
#include "model/ptx_model.hpp"
#include "model/select.hpp"
#include "run/records/output_file.hpp"

namespace vmmcheck::cli {
namespace {

int cmd_list(const Options& o, std::ostream& out) {
  claim_json(o, "list");
  const model::CaseTable table = load(o);
  const Selected s = select(o, table);
  if (s.cases.empty() && s.rows.empty()) throw InputError("no case or litmus row matches " + selection_text(o));
  const HereAnswers why = o.here ? here_answers(o, s) : HereAnswers{};
  std::vector<litmus::RowVerdict> verdicts;
  for (const litmus::Row& row : s.rows) verdicts.push_back(litmus::verdict_of(row));
  if (o.json_given) {
    nlohmann::ordered_json doc = list_document(table, s.cases, s.rows, verdicts);
    if (o.here) {
      const auto here = [](const std::string& w) {
        return w.empty() ? nlohmann::ordered_json{{"runs", true}} : nlohmann::ordered_json{{"runs", false}, {"why_not", w}};
      };
      for (std::size_t i = 0; i < s.cases.size(); ++i) doc["cases"][i]["here"] = here(why.cases[i]);
      for (std::size_t i = 0; i < s.rows.size(); ++i) doc["litmus_rows"][i]["here"] = here(why.rows[i]);
    }
    emit_json(o, doc, out);
    return kExitOk;
  }
  // One line a name: the case's expectation; a litmus row's, with what the model says of its question.
  std::vector<std::string> names, verdict_texts;
  for (const model::Case* c : s.cases) {
    names.push_back(c->name);
    verdict_texts.push_back(model::to_string(c->verdict.expectation));
  }
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    names.push_back(litmus::case_name_of(s.rows[i]));
    verdict_texts.push_back(std::string(model::to_string(verdicts[i].expectation)) + "  " + litmus::name_of(s.rows[i].expect) +
                            " (" + model::ptx::to_string(s.rows[i].condition) + "): " + litmus::answer_of(s.rows[i], verdicts[i]));
  }
  std::vector<std::string> here_texts = why.cases;
  here_texts.insert(here_texts.end(), why.rows.begin(), why.rows.end());
  std::size_t width = 0, runnable = 0;
  for (const std::string& n : names) width = std::max(width, n.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    out << names[i] << std::string(width + 2 - names[i].size(), ' ') << verdict_texts[i];
    if (o.here) {
      out << std::string(11 - std::min<std::size_t>(10, verdict_texts[i].size()), ' ')
          << (here_texts[i].empty() ? "runs here" : "not here: " + here_texts[i]);
      runnable += here_texts[i].empty();
    }
    out << "\n";
  }
  out << s.cases.size() << " cases and " << s.rows.size() << " litmus rows";
  if (o.here) out << ", " << runnable << " can run here";
  out << "\n";
  return kExitOk;
}

int cmd_explain(const Options& o, std::ostream& out) {
  const model::CaseTable table = load(o);
  std::vector<std::filesystem::path> results = shipped_results();
  if (!o.results.empty()) {
    // The file named is the user's input: one that is missing, unreadable or not a complete results
    // document is said so, not read as "no stored result".
    std::error_code ec;
    if (!std::filesystem::is_regular_file(o.results, ec))
      throw InputError("--results " + o.results +
                       (std::filesystem::is_directory(o.results, ec) ? ": is a folder, not a results file"
                        : std::filesystem::exists(o.results, ec)    ? ": not a regular file (a FIFO, device or socket)"
                                                                    : ": no such file"));
    if (run::document_kind_of_file(o.results) != std::optional<std::string>("results"))
      throw InputError("--results " + o.results + ": not a vmmcheck results file (run --json writes one; not JSON, truncated, or another kind)");
    // Read as --resume reads it: a field of the wrong type or an unknown status is named here (file, case,
    // key), not met as a bare JSON error half way through an explanation.
    run::read_results(o.results);
    results = {o.results};
  }
  // A name litmus.<row> is a litmus row of the shipped files (or of --litmus); another is a case of the
  // tables, or a row that stands for a retired family's case (`case NAME`).
  std::vector<litmus::Row> rows;
  std::vector<std::string> texts;
  for (const std::string& name : o.names) {
    const bool row_name = name.rfind("litmus.", 0) == 0;
    if (rows.empty()) rows = all_litmus_rows(o);
    // A row by the name its results bear, or by its file's name when it stands for a case.
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const litmus::Row& r) {
      return litmus::case_name_of(r) == name || litmus::row_name_of(r) == name;
    });
    if (row != rows.end()) refuse_case_twice(*row, table);
    if (row != rows.end()) texts.push_back(explain(*row, results));
    else if (!row_name) texts.push_back(explain(model::find_case(table.cases, name), table.cases, results));  // or: unknown case
    else throw InputError("unknown litmus row '" + name + "' ('vmmcheck model cases/litmus' lists them)");
  }
  if (o.names.empty()) {  // what the filter selects, as list --filter selects it: the cases, then the litmus rows
    for (const model::Case* c : model::select_cases_or_none(table.cases, o.filter)) texts.push_back(explain(*c, table.cases, results));
    for (const litmus::Row& row : all_litmus_rows(o))
      if (model::filter_selects(o.filter, litmus::case_name_of(row))) {
        refuse_case_twice(row, table);
        texts.push_back(explain(row, results));
      }
    if (texts.empty()) throw InputError("no case or litmus row matches the filter '" + o.filter + "'");
  }
  for (std::size_t i = 0; i < texts.size(); ++i) out << (i ? "\n" + std::string(78, '-') + "\n\n" : "") << texts[i];
  return kExitOk;
}

}  // namespace

int run_app(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (const int code = parse_command_line(args, o, out, err); code >= 0) return code;
  try {
    resolve_stress(o);
    switch (o.command) {
      case Command::List: return cmd_list(o, out);
      case Command::Explain: return cmd_explain(o, out);
      case Command::Model: return cmd_model(o, out, err);
      // The GPU build's commands (cli/gpu_commands.hpp); the CPU-only build says they need it.
      case Command::Run:
      case Command::Probe:
      case Command::Tune:
      case Command::Selftest:
      case Command::Toolchain:
      case Command::Bench:
      case Command::IsolatedCase:
      case Command::IpcPeer: return run_gpu_command(o, out, err);
    }
    return kExitFailure;
  } catch (const InputError& e) {  // every message one printable line: input it echoes is escaped
    err << "vmmcheck: " << one_printable_line(e.what()) << "\n";
    return kExitUsage;
  } catch (const NotSupportedError& e) {
    err << "vmmcheck: " << one_printable_line(e.what()) << "\n";
    return kExitNothingRunnable;
  } catch (const std::exception& e) {
    err << "vmmcheck: error: " << one_printable_line(e.what()) << "\n";
    return kExitFailure;
  }
}

}  // namespace vmmcheck::cli
