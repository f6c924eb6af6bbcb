#include "cli/tune.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <random>
#include <set>
#include <sstream>

#include "cli/cases.hpp"
#include "cli/tune_trial.hpp"
#include "cli/version.hpp"
#include "common/error.hpp"
#include "device/machine.hpp"
#include "run/records/output_file.hpp"
#include "run/records/report_json.hpp"
#include "run/kit/session.hpp"
#include "run/rows/engine.hpp"
#include "run/rows/row_power.hpp"
#include "run/rows/row_result.hpp"
#include "litmus/rows.hpp"

namespace vmmcheck::cli {
namespace {

using Json = nlohmann::ordered_json;

// What the search measures, on the generated kernels (the one in-kernel engine that takes stress:
// docs/litmus.md, "Power"): each selected assert row is guarded -- a draw under which one of them does
// not pass is not admissible, however often its controls show their outcome -- and its controls
// (derived, or named by its file) are measured; a selected permit row is measured itself.
struct Targets {
  std::vector<litmus::Row> measured_rows;  // asked: how often they show the outcome their question is about
  std::vector<litmus::Row> guarded_rows;
};

Targets targets_of(const Selected& selected) {
  Targets t;
  std::set<std::string> seen;
  for (const litmus::Row& row : selected.rows) {
    if (row.expect == litmus::Expect::Assert) {
      t.guarded_rows.push_back(row);
      for (run::RowControl& c : run::controls_of(row))
        if (seen.insert(c.name).second) t.measured_rows.push_back(std::move(c.row));
    } else {
      t.measured_rows.push_back(row);
    }
  }
  if (t.measured_rows.empty())
    throw InputError("tune: the selection has no litmus row to measure stress on (tune searches the generated kernels' knobs: --litmus FILE, or --filter 'litmus.*')");
  return t;
}

Trial measure(const Options& o, const Targets& targets, const run::StressParams& params) {
  run::Budget b = o.budget;
  b.stress = params;
  run::GpuSession session(o.device, b);
  Trial t;
  t.params = params;
  // The generated rows on the one in-kernel engine, under the same draw.
  run::RowEngine engine(session);
  std::vector<litmus::Row> all = targets.guarded_rows;
  all.insert(all.end(), targets.measured_rows.begin(), targets.measured_rows.end());
  engine.compile_ahead(all);
  // A row this machine turns down only when it runs (compressible memory asked for and not granted) is
  // left out, as one why_not_here turns down.
  const auto run_here = [&](const litmus::Row& row) -> const run::RowOutcomes* {
    if (!engine.why_not_here(row.test).empty()) return nullptr;
    try {
      return &engine.run(row);
    } catch (const NotSupportedError&) {
      return nullptr;
    }
  };
  for (const litmus::Row& row : targets.guarded_rows) {
    if (!t.rejected.empty()) break;
    const run::RowOutcomes* seen = run_here(row);
    if (!seen) continue;
    run::CaseResult r = run::begin_row_result(row);
    run::judge_row(row, *seen, r);
    if (r.status != run::Status::Pass) t.rejected = r.name + " " + run::to_string(r.status) + " (" + r.reason + ")";
  }
  for (const litmus::Row& row : targets.measured_rows) {
    const run::RowOutcomes* found = run_here(row);
    if (!found) continue;
    const run::RowOutcomes& seen = *found;
    run::CaseResult r = run::begin_row_result(row);
    run::judge_row(row, seen, r);  // weak: the instances showing what the row's question is about (no spin at its bound)
    t.targets.push_back({row.name, r.weak, r.judged.value_or(seen.instances), seen.gpu_seconds, o.tune_per == "instance"});
  }
  return t;
}

std::string rate_text(double v) {
  std::ostringstream o;
  o << std::setprecision(3) << v;
  return o.str();
}

Json trial_json(const Trial& t) {
  Json targets = Json::array();
  for (const Measured& m : t.targets)
    targets.push_back({{"name", m.name}, {"weak", m.weak}, {"instances", m.instances}, {"gpu_seconds", m.gpu_seconds},
                       {"weak_per_gpu_second", m.per_gpu_second()}});
  return Json{{"admissible", t.rejected.empty()},
              {"rejected_by", t.rejected},
              {"score", t.score()},
              {"racing", t.racing()},
              {"weak_per_gpu_second", t.weak_per_gpu_second()},
              {"params", run::to_json(t.params)},
              {"targets", targets}};
}

// Trial 1: the default with each instance's words contiguous (row_word_order), the draw earlier searches
// over cuda-litmus's tests chose for eleven of thirteen (docs/litmus.md, "Beside cuda-litmus"). Random
// draws over the knobs added since rarely land on it, and their winners at 10M instances need not hold
// at a billion; this one did.
run::StressParams contiguous_words() {
  run::StressParams p;
  p.row_word_order = run::StressParams::WordOrder::Contiguous;
  return p;
}

// One search: trial 0 the default (no stress), the baseline every draw is compared with, trial 1 the
// default with contiguous words, then the --start files' knobs, then random draws, then the refinements
// (--refine; cli/tune_trial.hpp, DrawPlan): each the best draw so far with one knob redrawn, so a search
// spends its last trials around what it found, where random draws over twenty knobs rarely come back.
// `written` is called after every trial (an interrupted search keeps what it found); --seconds stops the
// search only after the fixed draws and the starts (DrawPlan::always_runs).
struct Search {
  std::optional<Trial> best, baseline;
  std::size_t best_trial = 0;  // its number, from 1 (the confirmation can choose another than the search)
  std::vector<Trial> trials;
  Json tried = Json::array();
  std::size_t refined = 0;  // of the trials tried (a search stopped by --seconds makes fewer: they come last)
  Json confirmed = Json::array();  // the confirmation's second measurements (--confirm), best first by the search
  // How `best` was kept: the best of the trials ("search"), the best second measurement ("confirmation"),
  // or the default ("default: ..." says why: every draw failed a guard, or none of the best did again).
  std::string kept_by = "search";
};

// Keeps the default (trial 1, no stress: what a run without a params file uses), saying why.
void keep_default(Search& found, const std::string& why) {
  found.best = found.baseline;
  found.best_trial = 1;
  found.kept_by = "default: " + why;
}

// A --start file: one search's knobs (its "params"), as the rows read them. A file of per-row params (tune
// --each's) holds no one draw to start from.
struct Start {
  std::string path;
  run::StressParams params;
};

std::vector<Start> read_starts(const Options& o) {
  std::vector<Start> starts;
  for (const std::string& path : o.tune_start) {
    if (!run::read_row_stress(path).empty())
      throw InputError("tune --start " + path + ": per-row params (tune --each writes them); --start takes one search's \"params\"");
    starts.push_back({path, run::as_rows_read(run::read_stress_params(path))});
  }
  return starts;
}

// The confirmation (--confirm K): the K best draws measured once more, and the best of those second
// measurements kept (cli/tune_trial.hpp: the best of many noisy measurements overstates its draw). It
// comes after the trials, a search stopped by --seconds too (K measurements past its time). The draw it
// keeps is recorded with its second measurement; if none passes its guards again, their knobs are not to
// be trusted, and the default (trial 1, no stress: what a run without a params file uses) is kept.
// `written` after each measurement.
void confirm(const Options& o, const Targets& targets, Search& found, std::ostream& out, const std::string& title,
             const std::function<void(const Search&)>& written) {
  const std::vector<std::size_t> chosen = confirm_candidates(found.trials, o.tune_confirm);
  if (chosen.empty()) {  // every draw rejected: nothing to confirm, and the search says so already
    out << "tune: " << title << "no admissible draw to measure again\n";
    return;
  }
  std::vector<Trial> again;
  for (std::size_t n = 0; n < chosen.size(); ++n) {
    const Trial& first = found.trials[chosen[n]];
    again.push_back(measure(o, targets, first.params));
    const Trial& t = again.back();
    found.confirmed.push_back(trial_json(t));
    found.confirmed.back()["trial"] = chosen[n] + 1;
    found.confirmed.back()["search_score"] = first.score();
    out << "[" << title << "confirm " << n + 1 << "/" << chosen.size() << "] trial " << chosen[n] + 1 << ": score "
        << rate_text(first.score()) << " in the search, " << rate_text(t.score()) << " again  " << t.racing() << "/"
        << t.targets.size() << " racing" << (t.rejected.empty() ? "" : "  REJECTED: " + t.rejected) << "\n"
        << std::flush;
    written(found);
  }
  if (const std::optional<std::size_t> i = confirmed_best(again)) {
    found.best = again[*i];
    found.best_trial = chosen[*i] + 1;
    found.kept_by = "confirmation";
  } else {
    keep_default(found, "none of the " + std::to_string(chosen.size()) + " best draws passed its guards when measured again");
    out << "tune: " << title << found.kept_by << "\n";
  }
}

Search search(const Options& o, const Targets& targets, const DrawPlan& plan, const std::vector<Start>& starts,
              std::ostream& out, const std::string& title, const std::function<void(const Search&)>& written) {
  std::mt19937_64 rng(o.budget.seed);
  const auto start = std::chrono::steady_clock::now();
  Search found;
  for (std::uint32_t i = 0; i < o.tune_trials; ++i) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!plan.always_runs(i) && elapsed > o.tune_seconds) {
      out << "tune: " << title << "stopped after " << i << " trials (" << rate_text(elapsed) << " s)\n";
      break;
    }
    const Draw draw = plan.at(i);
    const bool refined = draw == Draw::Refined;
    const Start* from = draw == Draw::Start ? &starts.at(plan.start_index(i)) : nullptr;
    // Each draw as the rows read it: a knob no generated kernel reads stays at its default (as_rows_read).
    const run::StressParams params = run::as_rows_read(draw == Draw::Default           ? run::StressParams{}
                                                       : draw == Draw::ContiguousWords ? contiguous_words()
                                                       : from                          ? from->params
                                                       : refined ? run::refined_stress_params(found.best->params, rng)
                                                                 : run::random_stress_params(rng));
    const Trial t = measure(o, targets, params);
    if (i == 0) found.baseline = t;
    const bool better = !found.best || t.better_than(*found.best);
    if (better) found.best = t, found.best_trial = i + 1;
    found.trials.push_back(t);
    found.tried.push_back(trial_json(t));
    found.tried.back()["refined"] = refined;
    if (from) found.tried.back()["start"] = from->path;
    found.refined += refined;
    out << "[" << title << i + 1 << "/" << o.tune_trials << "] score " << rate_text(t.score()) << "  " << t.racing() << "/"
        << t.targets.size() << " racing  " << rate_text(t.weak_per_gpu_second()) << " weak/s GPU  "
        << (refined ? "refined: " : "") << (from ? "start " + from->path + ": " : "") << run::describe(t.params) << (t.rejected.empty() ? "" : "  REJECTED: " + t.rejected)
        << (better ? "  (best)" : "") << "\n"
        << std::flush;
    written(found);
  }
  if (!found.best->rejected.empty()) {  // every draw failed a guard: none of their knobs is to be kept
    keep_default(found, "every draw failed a guard");
    out << "tune: " << title << found.kept_by << " (trial 1, no stress: " << found.baseline->rejected << ")\n";
    written(found);
  } else if (o.tune_confirm > 0) {
    confirm(o, targets, found, out, title, written);
    written(found);
  }
  const std::string how = found.kept_by == "search" ? "" : found.kept_by == "confirmation" ? ", confirmed" : ", the default";
  out << "tune: " << title << "best (trial " << found.best_trial << how << ") "
      << run::describe(found.best->params) << ": score " << rate_text(found.best->score())
      << " against " << rate_text(found.baseline->score()) << " without stress; " << found.best->racing() << " of "
      << found.best->targets.size() << " rows racing (" << found.baseline->racing() << " without)\n";
  return found;
}

// The best draw as kept: kept by the confirmation, its second measurement, and its score in the search
// beside it.
Json best_json(const Search& s) {
  Json j = trial_json(*s.best);
  j["trial"] = s.best_trial;
  j["kept_by"] = s.kept_by;
  if (s.kept_by == "confirmation") j["search_score"] = s.trials.at(s.best_trial - 1).score();
  return j;
}

Json search_json(const Search& s) {
  return Json{{"best", best_json(s)}, {"baseline", trial_json(*s.baseline)}, {"trials", s.tried}, {"confirmed", s.confirmed}};
}

}  // namespace

int cmd_tune(const Options& o, std::ostream& out) {
  run::claim_output(o.tune_out, "stress-params", input_files(o));
  const std::vector<Start> starts = read_starts(o);
  const DrawPlan plan = plan_draws(o.tune_trials, o.tune_refine, starts.size());
  const model::CaseTable table = load(o);
  const Selected selected = select(o, table);
  // --each: one search per litmus file, its rows alone (the file's family, litmus.<stem>).
  std::vector<std::pair<std::string, Targets>> searches;
  if (o.tune_each) {
    if (selected.rows.empty()) throw InputError("tune --each: no litmus row selected (it searches each --litmus file on its own)");
    std::vector<std::string> families;
    for (const litmus::Row& row : selected.rows)
      if (std::find(families.begin(), families.end(), litmus::family_of(row)) == families.end())
        families.push_back(litmus::family_of(row));
    for (const std::string& family : families) {
      Selected one = selected;
      one.rows.clear();
      for (const litmus::Row& row : selected.rows)
        if (litmus::family_of(row) == family) one.rows.push_back(row);
      searches.emplace_back(family, targets_of(one));
    }
  } else {
    searches.emplace_back("", targets_of(selected));
  }
  // Usage errors come first, GPU or not.
  const device::Machine machine = device::describe_machine();
  if (machine.devices.empty()) throw NotSupportedError("tune needs a GPU: " + machine.no_gpu_reason);
  if (o.device >= static_cast<int>(machine.devices.size()))
    throw InputError("--device " + std::to_string(o.device) + " does not exist");
  const Targets& first = searches.front().second;
  out << "tune: " << o.tune_trials << " trials" << (o.tune_each ? " for each of " + std::to_string(searches.size()) + " files" : "")
      << " of " << first.measured_rows.size() << " litmus rows (each draw admissible only if "
      << first.guarded_rows.size() << " assert rows pass under it), " << o.budget.instances
      << " instances each" << (starts.empty() ? "" : ", " + std::to_string(starts.size()) + " from --start")
      << ", the last " << plan.refinements << " refining the best, at most " << o.tune_seconds << " s" << (o.tune_each ? " a file" : "")
      << (o.tune_confirm > 0 ? ", then the " + std::to_string(o.tune_confirm) + " best measured again" : "") << ", scored per "
      << o.tune_per << "; writing " << o.tune_out << "\n"
      << std::flush;

  // Written after every trial: an interrupted search keeps what it found. With --each, the file's
  // "params" are the defaults and its "rows" each file's best (run --stress-params gives each row its own).
  std::vector<std::pair<std::string, Search>> done;
  const auto write = [&](const std::string& family, const Search& current) {
    Json doc{{"schema", "vmmcheck-stress-params/1"},
             {"tool_version", VMMCHECK_VERSION},
             {"git_sha", VMMCHECK_GIT_SHA},
             {"device", machine.devices.at(static_cast<std::size_t>(o.device)).name},
             {"driver_release", machine.driver_release},
             {"written", run::utc_now_iso8601()},
             {"search", {{"trials", current.tried.size()}, {"instances_per_case", o.budget.instances},
                         {"iterations", o.budget.iterations}, {"seed", o.budget.seed}, {"filter", o.filter},
                         {"per", o.tune_per}, {"each", o.tune_each}, {"refine", plan.refinements}, {"starts", o.tune_start},
                         {"refined", current.refined}, {"confirm", o.tune_confirm},
                         {"remeasured", current.confirmed.size()}}}};
    if (!o.tune_each) {
      doc["params"] = run::to_json(current.best->params);
      doc["best"] = best_json(current);
      doc["baseline"] = trial_json(*current.baseline);
      doc["trials"] = current.tried;
      doc["confirmed"] = current.confirmed;
    } else {
      std::vector<run::RowStress> rows;
      Json each = Json::object();
      for (const auto& [f, s] : done) {
        rows.push_back({f + ".*", s.best->params});
        each[f] = search_json(s);
      }
      rows.push_back({family + ".*", current.best->params});
      each[family] = search_json(current);
      doc["params"] = run::to_json(run::StressParams{});
      doc["rows"] = run::to_json(rows);
      doc["searches"] = each;
    }
    run::write_results(o.tune_out, doc);
  };
  for (const auto& [family, targets] : searches) {
    const std::string title = family.empty() ? "" : family + " ";
    done.emplace_back(family, search(o, targets, plan, starts, out, title, [&](const Search& s) { write(family, s); }));
  }
  return 0;
}

}  // namespace vmmcheck::cli
