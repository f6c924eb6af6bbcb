#include "cli/selftest.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>

#include "cli/app.hpp"
#include "cli/cases.hpp"
#include "cli/command_line.hpp"
#include "cli/console.hpp"
#include "cli/version.hpp"
#include "common/error.hpp"
#include "common/scratch_dir.hpp"
#include "device/machine.hpp"
#include "model/select.hpp"
#include "ipc/child_process.hpp"
#include "run/kit/mutants.hpp"
#include "run/rows/generator_mutants.hpp"
#include "run/records/output_file.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::cli {
namespace {

using Json = nlohmann::ordered_json;
using ipc::ChildRun;
using ipc::run_child;
using ipc::signal_name;
using patterns::Mutant;
using patterns::MutantWord;

// One pass: `vmmcheck run` in a child with the mutant switched on (or none), over exactly `names`.
struct Pass {
  std::map<std::string, run::CaseResult> results;
  double seconds = 0;
};

class Passes {
 public:
  Passes(const Options& o, std::ostream& out) : o_(o), out_(out) {}

  Pass run(const std::optional<Mutant>& mutant, const std::vector<std::string>& names) {
    const std::string label = mutant ? std::string(patterns::name_of(*mutant)) : "as-built";
    const std::filesystem::path json = dir_.file(label + ".json");
    std::string filter;
    for (const std::string& n : names) filter += (filter.empty() ? "" : ",") + n;
    std::vector<std::string> argv{self_program(), "run", "--no-power", "--json", json.string(), "--filter", filter,
                                  "--instances", std::to_string(o_.budget.instances),
                                  "--iterations", std::to_string(o_.budget.iterations),
                                  "--op-words", std::to_string(o_.budget.op_words),
                                  "--seed", std::to_string(o_.budget.seed),
                                  "--device", std::to_string(o_.device),
                                  "--timeout", std::to_string(o_.timeout_s)};
    for (const auto& p : case_paths(o_)) argv.insert(argv.end(), {"--cases", std::filesystem::absolute(p).string()});
    if (!o_.stress_params.empty()) argv.insert(argv.end(), {"--stress-params", o_.stress_params});
    // The switch is the environment (run/kit/mutants.hpp), so the pass's own isolated children inherit it.
    if (mutant) setenv(run::kMutantVariable, std::string(patterns::name_of(*mutant)).c_str(), 1);
    else unsetenv(run::kMutantVariable);
    const ipc::ChildRun child = ipc::run_child(argv, std::chrono::hours(2));
    unsetenv(run::kMutantVariable);
    const bool ran = child.end == ipc::ChildRun::End::Exited &&
                     (child.code == kExitOk || child.code == kExitFailure) && std::filesystem::exists(json);
    if (!ran)
      throw std::runtime_error("selftest: the " + label + " pass did not finish (" +
                               (child.end == ipc::ChildRun::End::Exited ? "exit " + std::to_string(child.code)
                                                                        : ipc::signal_name(child.code)) +
                               (child.error.empty() ? "" : ", " + child.error) + "):\n" + child.log_tail);
    Pass p;
    p.seconds = child.seconds;
    for (run::CaseResult& r : run::read_results(json).results) p.results[r.name] = std::move(r);
    return p;
  }

 private:
  const Options& o_;
  std::ostream& out_;
  const ScratchDir dir_{"selftest"};  // each pass's results file
};

std::vector<const MutantWord*> chosen_mutants(const Options& o) {
  for (const std::string& name : o.mutants)
    if (!patterns::mutant_named(name)) throw InputError("selftest: no mutant '" + name + "' (" + run::known_mutants() + ")");
  std::vector<const MutantWord*> out;
  for (const MutantWord& m : patterns::kMutantWords)
    if (o.mutants.empty() || std::find(o.mutants.begin(), o.mutants.end(), m.name) != o.mutants.end()) out.push_back(&m);
  return out;
}

// Under a mutant, a case that passed as built and now does not (Fail, Warning, Crash, ...) caught it.
bool went_wrong(const run::CaseResult& r) {
  return r.status != run::Status::Pass && r.status != run::Status::NotSupported;
}

std::string histogram_text(const run::Histogram& h) {
  std::ostringstream o;
  for (const auto& [outcome, count] : h)
    if (count) o << (o.tellp() ? " " : "") << outcome << "=" << count;
  return o.str();
}

// One cell of the matrix: a mutant in one pattern it lives in.
struct Cell {
  std::string pattern;
  enum class Verdict { Caught, Unobservable, NotRunHere, NotCaught } verdict = Verdict::NotCaught;
  std::size_t cases_run = 0;     // cases of the pattern that ran under the mutant
  std::uint64_t instances = 0;   // their instances
  Json caught_by = Json::array();
  std::string because;           // unobservable: the pattern's reason; not run here: why not
};

const char* verdict_text(Cell::Verdict v) {
  switch (v) {
    case Cell::Verdict::Caught: return "caught";
    case Cell::Verdict::Unobservable: return "unobservable";
    case Cell::Verdict::NotRunHere: return "not run here";
    case Cell::Verdict::NotCaught: return "NOT CAUGHT";
  }
  return "?";
}

const char* verdict_token(Cell::Verdict v) {
  switch (v) {
    case Cell::Verdict::Caught: return "caught";
    case Cell::Verdict::Unobservable: return "unobservable";
    case Cell::Verdict::NotRunHere: return "not_run_here";
    case Cell::Verdict::NotCaught: return "not_caught";
  }
  return "?";
}

// A cell's lines: its verdict, and the first cases that caught it (--verbose: all).
void print_cell(std::ostream& out, const Cell& cell, bool verbose) {
  char line[160];
  std::snprintf(line, sizeof line, "  %-16s %-13s %zu of %zu cases went wrong", cell.pattern.c_str(),
                verdict_text(cell.verdict), cell.caught_by.size(), cell.cases_run);
  out << line;
  if (cell.verdict == Cell::Verdict::Unobservable)
    out << " in " << human_count(cell.instances) << " instances -- declared: " << cell.because;
  if (cell.verdict == Cell::Verdict::NotRunHere) out << " -- " << cell.because;
  out << "\n";
  for (std::size_t i = 0; i < cell.caught_by.size() && (verbose || i < 2); ++i)
    out << "      " << cell.caught_by[i]["case"].get<std::string>() << "  " << cell.caught_by[i]["status"].get<std::string>()
        << "  " << cell.caught_by[i]["histogram"].get<std::string>() << "\n";
  if (!verbose && cell.caught_by.size() > 2) out << "      ... and " << cell.caught_by.size() - 2 << " more (--verbose lists them)\n";
}

Json cell_record(const Cell& cell) {
  Json record{{"pattern", cell.pattern},     {"verdict", verdict_token(cell.verdict)}, {"cases_run", cell.cases_run},
              {"instances", cell.instances}, {"caught_by", cell.caught_by}};
  if (!cell.because.empty()) record["because"] = cell.because;
  return record;
}

}  // namespace

int cmd_selftest(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.json_given && !o.json.empty() && o.json != "-") run::claim_output(o.json, "selftest");
  // Each pass is a `run` child given this selftest's settings spelt out; none of run's environment twins an
  // outer job exported for its own `run` (VMMCHECK_BASELINE, VMMCHECK_LITMUS, VMMCHECK_SHARD, ...) may reach it.
  for (const std::string& name : twins_of("run")) unsetenv(name.c_str());
  const model::CaseTable table = load(o);
  const std::vector<const MutantWord*> mutants = chosen_mutants(o);
  const Selected chosen = select(o, table);
  const std::vector<const model::Case*>& selected = chosen.cases;
  std::vector<std::string> all;
  for (const model::Case* c : selected) all.push_back(c->name);
  // The generated litmus rows too: the generator's mutants (run/rows/generator_mutants.hpp) live in them.
  std::vector<std::string> row_names;
  for (const litmus::Row& row : chosen.rows) row_names.push_back(litmus::case_name_of(row));
  all.insert(all.end(), row_names.begin(), row_names.end());
  if (all.empty()) throw InputError("selftest: the filter selects no case");

  const device::Machine machine = device::describe_machine();
  if (machine.devices.empty()) throw NotSupportedError("selftest needs a GPU: " + machine.no_gpu_reason);
  Passes passes(o, out);
  out << "selftest: the suite as built (" << all.size() << " cases), then " << mutants.size() << " mutants\n" << std::flush;
  const Pass built = passes.run(std::nullopt, all);
  // As built, every case must reach a verdict. A case that does not pass as built (a driver finding, a
  // model warning) cannot catch a mutant and is left out of the mutant passes; a harness failure
  // (Crash, Error, Timeout) stops the self-test.
  std::size_t built_passed = 0;
  std::vector<std::string> not_passing, harness_failures;
  for (const auto& [name, r] : built.results) {
    if (r.status == run::Status::Pass) ++built_passed;
    else if (r.status == run::Status::Crash || r.status == run::Status::Error || r.status == run::Status::Timeout)
      harness_failures.push_back(name + " (" + run::to_string(r.status) + ")");
    else if (r.status != run::Status::NotSupported) not_passing.push_back(name + " (" + run::to_string(r.status) + ")");
  }
  out << "as built: " << built_passed << " passed, " << not_passing.size() << " with another verdict (left out of the mutant passes), "
      << harness_failures.size() << " harness failures (" << built.seconds << " s)\n";
  for (const std::string& f : not_passing) out << "    " << f << "\n";
  if (!harness_failures.empty()) {
    for (const std::string& f : harness_failures) err << "  " << f << "\n";
    err << "vmmcheck: selftest needs every case to reach a verdict as built; fix those first\n";
    return kExitFailure;
  }

  // The matrix: each mutant against each pattern it lives in (the patterns' kMutants). A cell is caught
  // when a case of that very pattern went wrong under the mutant.
  Json mutant_records = Json::array();
  std::size_t uncaught = 0, cells = 0;
  for (const MutantWord* m : mutants) {
    std::vector<const model::PatternInfo*> homes;
    for (const model::PatternInfo& p : model::all_patterns())
      if (p.lives(m->mutant)) homes.push_back(&p);
    std::vector<std::string> names;
    for (const model::Case* c : selected)
      if (c->pattern().lives(m->mutant) && built.results.at(c->name).status == run::Status::Pass) names.push_back(c->name);
    const auto& in_generator = run::generator_mutants();
    const bool generated = std::find(in_generator.begin(), in_generator.end(), m->mutant) != in_generator.end();
    std::vector<std::string> rows_here;  // the generated rows that passed as built
    if (generated)
      for (const std::string& name : row_names)
        if (built.results.count(name) && built.results.at(name).status == run::Status::Pass) rows_here.push_back(name);
    names.insert(names.end(), rows_here.begin(), rows_here.end());
    Pass p;
    if (!names.empty()) p = passes.run(m->mutant, names);

    out << m->name << " (removes " << m->removes << ")" << (names.empty() ? "" : ", " + std::to_string(names.size()) + " cases") << ":\n";
    Json cell_records = Json::array();
    for (const model::PatternInfo* home : homes) {
      Cell cell;
      cell.pattern = std::string(home->name);
      std::string skipped_because;
      std::size_t selected_here = 0;
      for (const model::Case* c : selected) {
        if (&c->pattern() != home) continue;
        ++selected_here;
        const auto under = p.results.find(c->name);
        if (under == p.results.end()) {
          const run::CaseResult& as_built = built.results.at(c->name);
          if (as_built.status == run::Status::NotSupported && skipped_because.empty()) skipped_because = as_built.reason;
          continue;
        }
        const run::CaseResult& r = under->second;
        if (r.status == run::Status::NotSupported) continue;
        ++cell.cases_run;
        cell.instances += r.instances;
        if (went_wrong(r))
          cell.caught_by.push_back({{"case", c->name}, {"status", run::to_string(r.status)},
                                    {"histogram", histogram_text(r.histogram)}, {"reason", r.reason}});
      }
      const patterns::Lives* lives = home->lives(m->mutant);
      if (!cell.caught_by.empty()) {
        cell.verdict = Cell::Verdict::Caught;
      } else if (cell.cases_run == 0) {
        cell.verdict = Cell::Verdict::NotRunHere;
        cell.because = selected_here == 0 ? "no case of the pattern selected"
                       : skipped_because.empty() ? "no case of the pattern passed as built" : skipped_because;
      } else if (!lives->unobservable.empty()) {
        cell.verdict = Cell::Verdict::Unobservable;
        cell.because = std::string(lives->unobservable);
      } else {
        cell.verdict = Cell::Verdict::NotCaught;
        ++uncaught;
      }
      ++cells;
      print_cell(out, cell, o.verbose);
      cell_records.push_back(cell_record(cell));
    }
    if (generated) {  // the generated rows, one cell: some row must Fail (or otherwise go wrong) under it
      Cell cell;
      cell.pattern = "litmus";
      for (const std::string& name : rows_here) {
        const auto under = p.results.find(name);
        if (under == p.results.end() || under->second.status == run::Status::NotSupported) continue;
        ++cell.cases_run;
        cell.instances += under->second.instances;
        if (went_wrong(under->second))
          cell.caught_by.push_back({{"case", name}, {"status", run::to_string(under->second.status)},
                                    {"histogram", histogram_text(under->second.histogram)}, {"reason", under->second.reason}});
      }
      if (!cell.caught_by.empty()) {
        cell.verdict = Cell::Verdict::Caught;
      } else if (cell.cases_run == 0) {
        cell.verdict = Cell::Verdict::NotRunHere;
        cell.because = row_names.empty() ? "no litmus row selected" : "no litmus row passed as built";
      } else {
        ++uncaught;
      }
      ++cells;
      print_cell(out, cell, o.verbose);
      cell_records.push_back(cell_record(cell));
    }
    out << std::flush;
    mutant_records.push_back({{"mutant", m->name}, {"removes", m->removes}, {"cases_run", names.size()},
                              {"seconds", p.seconds}, {"patterns", cell_records}});
  }
  out << (cells - uncaught) << " of " << cells << " (mutant, pattern) pairs caught, unobservable as declared, or not run here"
      << (uncaught ? "; a pair no case of its pattern catches is a finding: that pattern cannot tell the mechanism works here" : "")
      << "\n";
  if (o.json_given && !o.json.empty() && o.json != "-")
    run::write_results(o.json, Json{{"schema", "vmmcheck-selftest/2"},
                                    {"tool_version", VMMCHECK_VERSION},
                                    {"git_sha", VMMCHECK_GIT_SHA},
                                    {"written", run::utc_now_iso8601()},
                                    {"budget", run::to_json(o.budget)},
                                    {"filter", o.filter},
                                    {"as_built", {{"cases", all.size()}, {"passed", built_passed}, {"not_passing", not_passing},
                                                  {"seconds", built.seconds}}},
                                    {"mutants", mutant_records}});
  return uncaught ? kExitFailure : kExitOk;
}

}  // namespace vmmcheck::cli
