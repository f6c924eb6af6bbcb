#include "cli/selftest.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <set>
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
#include "codegen/compile_ahead.hpp"
#include "codegen/generator.hpp"
#include "common/error.hpp"
#include "common/scratch_dir.hpp"
#include "device/machine.hpp"
#include "model/select.hpp"
#include "ipc/child_process.hpp"
#include "run/kit/mutants.hpp"
#include "run/rows/engine.hpp"
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
    std::filesystem::remove(json);  // a pass is a run of its own: an earlier round's file is not one it adds to
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

// The generated rows a generator mutant changes: those whose kernel under it is not the kernel as built
// (built as the run's stress knobs say). The others ran the very same kernel in the as-built pass: their
// result there stands for the mutant too, and they cannot catch it.
std::vector<std::string> rows_changed_by(Mutant m, const std::vector<litmus::Row>& rows, const std::set<std::string>& passed,
                                         const run::Budget& budget, std::vector<codegen::Kernel>& kernels) {
  std::vector<std::string> out;
  for (const litmus::Row& row : rows) {
    const std::string name = litmus::case_name_of(row);
    if (!passed.count(name) || !codegen::why_not_generated(row.test).empty()) continue;
    const codegen::Build build = run::build_of(run::stress_for_row(budget, row));  // as the run builds it
    codegen::Kernel mutated = codegen::generate(run::as_generated(row.test, m), build);
    if (mutated.name == codegen::generate(row.test, build).name) continue;
    out.push_back(name);
    kernels.push_back(std::move(mutated));
  }
  return out;
}

// How much of a mutant's work a round tries first: a cell is caught by one case going wrong, and on the
// H200 almost every case of a pattern catches its mutants, so the first few usually settle every cell;
// a cell they leave open gets the rest of its cases in the next round.
constexpr std::size_t kFirstCasesPerPattern = 8;
constexpr std::size_t kFirstRows = 24;

// One mutant's cell of one home (a pattern, or "litmus" for the generated rows): the cases it may try.
struct Home {
  Cell cell;
  const patterns::Lives* lives = nullptr;  // nullptr: the generated rows
  std::vector<std::string> untried;        // cases that passed as built, in the order they are tried
  std::set<std::string> members;           // all of them
  std::size_t selected = 0;                // cases of the pattern the filter selected
  std::string skipped_because;             // why none passed as built, where one was NotSupported
  bool settled() const { return !cell.caught_by.empty() || untried.empty(); }
};

}  // namespace

int cmd_selftest(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.json_given && !o.json.empty() && o.json != "-") run::claim_output(o.json, "selftest", input_files(o));
  // Each pass is a `run` child given this selftest's settings spelt out; none of run's environment twins an
  // outer job exported for its own `run` (VMMCHECK_BASELINE, VMMCHECK_LITMUS, VMMCHECK_SHARD, ...) may reach it.
  for (const std::string& name : twins_of("run")) unsetenv(name.c_str());
  const auto started = std::chrono::steady_clock::now();
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
  std::set<std::string> passed;
  std::vector<std::string> not_passing, harness_failures;
  for (const auto& [name, r] : built.results) {
    if (r.status == run::Status::Pass) ++built_passed, passed.insert(name);
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

  // The rows each generator mutant changes, their kernels compiled ahead on every core of this process
  // (the passes find them in NVRTC's disk cache) while the first passes run.
  const auto& in_generator = run::generator_mutants();
  std::map<Mutant, std::vector<std::string>> changed;
  std::map<Mutant, std::vector<codegen::Kernel>> mutated;
  for (const MutantWord* m : mutants)
    if (std::find(in_generator.begin(), in_generator.end(), m->mutant) != in_generator.end())
      changed[m->mutant] = rows_changed_by(m->mutant, chosen.rows, passed, o.budget, mutated[m->mutant]);
  const std::string& cc = machine.devices.at(static_cast<std::size_t>(std::max(0, o.device))).compute_capability;
  const int arch = std::stoi(cc.substr(0, cc.find('.'))) * 10 + std::stoi(cc.substr(cc.find('.') + 1));
  codegen::CompileAhead compiler(arch);
  for (auto& [m, kernels] : mutated)
    for (const codegen::Kernel& k : kernels) compiler.start(k);

  // The matrix: each mutant against each pattern it lives in (the patterns' kMutants). A cell is caught
  // when a case of that very pattern went wrong under the mutant.
  Json mutant_records = Json::array();
  std::size_t uncaught = 0, cells = 0;
  for (const MutantWord* m : mutants) {
    std::vector<Home> homes;
    for (const model::PatternInfo& p : model::all_patterns()) {
      const patterns::Lives* lives = p.lives(m->mutant);
      if (!lives) continue;
      Home h;
      h.cell.pattern = std::string(p.name);
      h.lives = lives;
      for (const model::Case* c : selected) {
        if (&c->pattern() != &p) continue;
        ++h.selected;
        const run::CaseResult& as_built = built.results.at(c->name);
        if (as_built.status == run::Status::Pass) h.untried.push_back(c->name);
        else if (as_built.status == run::Status::NotSupported && h.skipped_because.empty()) h.skipped_because = as_built.reason;
      }
      h.members.insert(h.untried.begin(), h.untried.end());
      homes.push_back(std::move(h));
    }
    const bool generated = changed.count(m->mutant) > 0;
    std::size_t rows_as_built = 0;  // rows that passed as built whose kernel the mutant leaves alone
    if (generated) {
      Home h;
      h.cell.pattern = "litmus";
      h.untried = changed.at(m->mutant);
      h.selected = row_names.size();
      for (const std::string& name : row_names) rows_as_built += passed.count(name);
      rows_as_built -= h.untried.size();
      h.members.insert(h.untried.begin(), h.untried.end());
      homes.push_back(std::move(h));
    }
    if (generated)  // the pass loads its mutated kernels from the disk cache
      for (const codegen::Kernel& k : mutated.at(m->mutant)) (void)compiler.get(k);

    // Rounds: the first few cases of every home, then the rest of those no case caught yet.
    double seconds = 0;
    std::size_t passes_run = 0, cases_run = 0;
    for (bool first = true;; first = false) {
      std::vector<std::string> names;
      for (Home& h : homes) {
        if (!first && h.settled()) continue;
        const std::size_t take = first ? (h.lives ? kFirstCasesPerPattern : kFirstRows) : h.untried.size();
        const std::size_t n = std::min(take, h.untried.size());
        names.insert(names.end(), h.untried.begin(), h.untried.begin() + static_cast<std::ptrdiff_t>(n));
        h.untried.erase(h.untried.begin(), h.untried.begin() + static_cast<std::ptrdiff_t>(n));
      }
      if (names.empty()) break;
      const Pass p = passes.run(m->mutant, names);
      seconds += p.seconds;
      ++passes_run;
      cases_run += names.size();
      for (Home& h : homes)
        for (const std::string& name : names) {
          const auto under = p.results.find(name);
          if (under == p.results.end() || under->second.status == run::Status::NotSupported) continue;
          if (!h.members.count(name)) continue;
          ++h.cell.cases_run;
          h.cell.instances += under->second.instances;
          if (went_wrong(under->second))
            h.cell.caught_by.push_back({{"case", name}, {"status", run::to_string(under->second.status)},
                                        {"histogram", histogram_text(under->second.histogram)}, {"reason", under->second.reason}});
        }
      if (std::all_of(homes.begin(), homes.end(), [](const Home& h) { return h.settled(); })) break;
    }

    out << m->name << " (removes " << m->removes << ")"
        << (cases_run ? ", " + std::to_string(cases_run) + " cases in " + std::to_string(passes_run) + " pass" +
                            (passes_run == 1 ? "" : "es")
                      : std::string())
        << (generated ? ", " + std::to_string(rows_as_built) + " rows it leaves as built not rerun" : std::string()) << ":\n";
    Json cell_records = Json::array();
    for (Home& h : homes) {
      Cell& cell = h.cell;
      if (!cell.caught_by.empty()) {
        cell.verdict = Cell::Verdict::Caught;
      } else if (cell.cases_run == 0) {
        cell.verdict = Cell::Verdict::NotRunHere;
        if (h.lives)
          cell.because = h.selected == 0 ? "no case of the pattern selected"
                         : h.skipped_because.empty() ? "no case of the pattern passed as built" : h.skipped_because;
        else
          cell.because = row_names.empty() ? "no litmus row selected"
                         : rows_as_built > 0 ? "it changes no generated kernel of a row that passed as built"
                                             : "no litmus row passed as built";
      } else if (h.lives && !h.lives->unobservable.empty()) {
        cell.verdict = Cell::Verdict::Unobservable;
        cell.because = std::string(h.lives->unobservable);
      } else {
        cell.verdict = Cell::Verdict::NotCaught;
        ++uncaught;
      }
      ++cells;
      print_cell(out, cell, o.verbose);
      cell_records.push_back(cell_record(cell));
    }
    out << std::flush;
    Json record{{"mutant", m->name}, {"removes", m->removes}, {"cases_run", cases_run}, {"passes", passes_run},
                {"seconds", seconds}, {"patterns", cell_records}};
    if (generated) record["rows_left_as_built"] = rows_as_built;
    mutant_records.push_back(std::move(record));
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out << (cells - uncaught) << " of " << cells << " (mutant, pattern) pairs caught, unobservable as declared, or not run here"
      << (uncaught ? "; a pair no case of its pattern catches is a finding: that pattern cannot tell the mechanism works here" : "")
      << " (" << std::fixed << std::setprecision(1) << total << " s)\n";
  if (o.json_given && !o.json.empty() && o.json != "-")
    run::write_results(o.json, Json{{"schema", "vmmcheck-selftest/3"},
                                    {"tool_version", VMMCHECK_VERSION},
                                    {"git_sha", VMMCHECK_GIT_SHA},
                                    {"written", run::utc_now_iso8601()},
                                    {"budget", run::to_json(o.budget)},
                                    {"filter", o.filter},
                                    {"seconds", total},
                                    {"as_built", {{"cases", all.size()}, {"passed", built_passed}, {"not_passing", not_passing},
                                                  {"seconds", built.seconds}}},
                                    {"mutants", mutant_records}});
  return uncaught ? kExitFailure : kExitOk;
}

}  // namespace vmmcheck::cli
