#include "cli/selftest.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>

#include "cli/app.hpp"
#include "cli/cases.hpp"
#include "cli/version.hpp"
#include "common/error.hpp"
#include "device/machine.hpp"
#include "model/select.hpp"
#include "run/isolation.hpp"
#include "run/mutants.hpp"
#include "run/report_json.hpp"

namespace vmmcheck::cli {
namespace {

using Json = nlohmann::ordered_json;
using run::Mutant;
using run::MutantInfo;

bool in_patterns(const MutantInfo& m, std::string_view pattern) {
  std::string_view rest = m.patterns;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == pattern) return true;
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return false;
}

// One pass: `vmmcheck run` in a child with the mutant switched on (or none), over exactly `names`.
struct Pass {
  std::map<std::string, run::CaseResult> results;
  double seconds = 0;
};

class Passes {
 public:
  Passes(const Options& o, std::ostream& out) : o_(o), out_(out) {
    dir_ = std::filesystem::temp_directory_path() / ("vmmcheck-selftest-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  ~Passes() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  Pass run(const std::optional<Mutant>& mutant, const std::vector<std::string>& names) {
    const std::string label = mutant ? std::string(run::name_of(*mutant)) : "as-built";
    const std::filesystem::path json = dir_ / (label + ".json");
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
    // The switch is the environment (run/mutants.hpp), so the pass's own isolated children inherit it.
    if (mutant) setenv(run::kMutantVariable, std::string(run::name_of(*mutant)).c_str(), 1);
    else unsetenv(run::kMutantVariable);
    const run::ChildRun child = run::run_child(argv, std::chrono::hours(2));
    unsetenv(run::kMutantVariable);
    const bool ran = child.end == run::ChildRun::End::Exited &&
                     (child.code == kExitOk || child.code == kExitFailure) && std::filesystem::exists(json);
    if (!ran)
      throw std::runtime_error("selftest: the " + label + " pass did not finish (" +
                               (child.end == run::ChildRun::End::Exited ? "exit " + std::to_string(child.code)
                                                                        : run::signal_name(child.code)) +
                               (child.error.empty() ? "" : ", " + child.error) + "):\n" + child.log_tail);
    Pass p;
    p.seconds = child.seconds;
    for (run::CaseResult& r : run::read_results(json).results) p.results[r.name] = std::move(r);
    return p;
  }

 private:
  const Options& o_;
  std::ostream& out_;
  std::filesystem::path dir_;
};

std::vector<const MutantInfo*> chosen_mutants(const Options& o) {
  std::vector<const MutantInfo*> out;
  for (const MutantInfo& m : run::kMutants)
    if (o.mutants.empty() || std::find(o.mutants.begin(), o.mutants.end(), m.name) != o.mutants.end())
      out.push_back(&m);
  for (const std::string& name : o.mutants)
    if (!run::mutant_named(name)) throw InputError("selftest: no mutant '" + name + "' (" + run::known_mutants() + ")");
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

}  // namespace

int cmd_selftest(const Options& o, std::ostream& out, std::ostream& err) {
  const model::CaseTable table = load(o);
  const std::vector<const MutantInfo*> mutants = chosen_mutants(o);
  std::vector<std::string> all;
  for (const model::Case* c : model::select_cases(table.cases, o.filter)) all.push_back(c->name);
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

  Json mutant_records = Json::array();
  std::size_t uncaught = 0;
  for (const MutantInfo* m : mutants) {
    std::vector<std::string> names;
    for (const model::Case* c : model::select_cases(table.cases, o.filter))
      if (in_patterns(*m, c->pattern().name) && built.results.at(c->name).status == run::Status::Pass)
        names.push_back(c->name);
    Json caught = Json::array();
    double seconds = 0;
    if (!names.empty()) {
      const Pass p = passes.run(m->mutant, names);
      seconds = p.seconds;
      for (const auto& [name, r] : p.results)
        if (went_wrong(r))
          caught.push_back({{"case", name}, {"status", run::to_string(r.status)}, {"histogram", histogram_text(r.histogram)},
                            {"reason", r.reason}});
    }
    if (caught.empty()) ++uncaught;
    out << (caught.empty() ? "NOT CAUGHT " : "caught     ") << m->name << " (removes " << m->removes << "): "
        << caught.size() << " of " << names.size() << " cases\n";
    for (std::size_t i = 0; i < caught.size() && (o.verbose || i < 3); ++i)
      out << "    " << caught[i]["case"].get<std::string>() << "  " << caught[i]["status"].get<std::string>() << "  "
          << caught[i]["histogram"].get<std::string>() << "\n";
    if (!o.verbose && caught.size() > 3) out << "    ... and " << caught.size() - 3 << " more (--verbose lists them)\n";
    out << std::flush;
    mutant_records.push_back({{"mutant", m->name}, {"removes", m->removes}, {"runners", m->patterns},
                              {"cases_run", names.size()}, {"caught", !caught.empty()}, {"seconds", seconds},
                              {"caught_by", caught}});
  }
  out << (mutants.size() - uncaught) << " of " << mutants.size() << " mutants caught"
      << (uncaught ? "; a mutant no case catches is a finding: the suite cannot tell that mechanism works here" : "")
      << "\n";
  if (o.json_given && !o.json.empty() && o.json != "-")
    run::write_results(o.json, Json{{"schema", "vmmcheck-selftest/1"},
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
