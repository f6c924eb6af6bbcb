#include "run/execution/suite.hpp"

#include <utility>

#include "common/error.hpp"
#include "device/machine.hpp"
#include "run/kit/session.hpp"
#include "run/kit/support.hpp"
#include "codegen/nvrtc.hpp"
#include "run/rows/engine.hpp"
#include "run/rows/row_power.hpp"
#include "run/records/provenance.hpp"

namespace vmmcheck::run {
namespace {

// Results of an earlier, interrupted run that this one keeps, and the context block the file goes on
// with: its own, with this resumption's time added (nothing in it is rewritten). Resuming finishes the
// same run (run/records/provenance.hpp); anything else is an InputError naming each difference.
std::map<std::string, CaseResult> resumed_results(const RunSettings& o, const RunContext& here, Json& context_block) {
  std::map<std::string, CaseResult> kept;
  if (o.resume_file.empty()) return kept;
  StoredRun stored = read_results(o.resume_file);
  const std::vector<std::string> differences = resume_mismatches(stored.context, here);
  if (!differences.empty()) {
    std::string text;
    for (const std::string& d : differences) text += (text.empty() ? "" : "; ") + d;
    throw InputError(o.resume_file + ": cannot resume a run of another machine or selection here (the file is left as "
                     "it is) -- " + text);
  }
  context_block = stored.context_block;
  if (!context_block.contains("resumed")) context_block["resumed"] = Json::array();
  context_block["resumed"].push_back(here.started);
  for (CaseResult& r : stored.results) {
    if (r.reason.rfind("not run:", 0) == 0) continue;  // a case the earlier run could not finish runs again
    kept[r.name] = std::move(r);
  }
  return kept;
}

// A result kept from the file being resumed, with what the case is taken from this run's tables: a file
// of schema version 1 has no pattern or axes, and this run writes version 2.
CaseResult with_identity(CaseResult kept, const model::Case& c) {
  const CaseResult fresh = begin_result(c);
  kept.family = fresh.family;
  kept.pattern = fresh.pattern;
  kept.axes = fresh.axes;
  Baseline::reset(kept);  // applied again, from what vmmcheck reported
  return kept;
}

}  // namespace

Suite::Suite(RunSettings settings, const std::vector<model::Case>& table) : options_(std::move(settings)) {
  context_.tool_version = options_.tool_version;
  context_.git_sha = options_.git_sha;
  context_.device = options_.device;
  context_.budget = options_.budget;
  context_.cases_path = options_.cases_path_text;
  context_.filter = options_.selection.filter;
  if (options_.selection.caselist) context_.caselist = options_.selection.caselist->path();
  context_.shard = options_.selection.shard;
  context_.started = utc_now_iso8601();
  if (options_.baseline) context_.expectations = options_.baseline->files();
  const device::Machine m = device::describe_machine();
  set_machine(context_, m);
  context_block_ = to_json(context_);
  kept_ = resumed_results(options_, context_, context_block_);
  gpu_present_ = !m.devices.empty();
  no_gpu_reason_ = m.no_gpu_reason;

  if (gpu_present_) {
    try {
      machine_ = describe_for_support();
    } catch (const NotSupportedError& e) {
      gpu_present_ = false;
      no_gpu_reason_ = e.what();
    }
  }
  // The in-process session; with isolate_all every case builds its own in a child instead.
  std::unique_ptr<GpuSession> session;
  if (gpu_present_ && !options_.isolate_all) {
    try {
      session = std::make_unique<GpuSession>(options_.device, options_.budget);
    } catch (const NotSupportedError& e) {
      gpu_present_ = false;
      no_gpu_reason_ = e.what();
    } catch (const CudaError& e) {
      gpu_present_ = false;
      no_gpu_reason_ = std::string("the GPU could not be set up: ") + e.what();
    }
  }
  executor_ = std::make_unique<Executor>(options_, gpu_present_, no_gpu_reason_, std::move(session));
  power_ = std::make_unique<PowerCheck>(table, *executor_);
}

Suite::~Suite() = default;

RowEngine& Suite::engine() {
  if (!engine_) {
    GpuSession* session = executor_->session();
    if (!session) {
      row_session_ = std::make_unique<GpuSession>(options_.device, options_.budget);
      session = row_session_.get();
    }
    engine_ = std::make_unique<RowEngine>(*session);
  }
  return *engine_;
}

void Suite::check_resumed(const std::vector<const model::Case*>& cases, const std::vector<litmus::Row>& rows) const {
  if (kept_.empty()) return;
  std::map<std::string, CaseResult> here;
  for (const model::Case* c : cases) here.emplace(c->name, begin_result(*c));
  for (const litmus::Row& row : rows) here.emplace(litmus::case_name_of(row), begin_row_result(row));
  const std::string file = options_.resume_file;
  for (const auto& [name, stored] : kept_) {
    const auto it = here.find(name);
    if (it == here.end())
      throw InputError(file + ": holds a result of " + name + ", which this run does not select; resuming would drop "
                       "it (the file is left as it is)");
    // A file from before results carried their rule has none to compare.
    if (stored.expectation != it->second.expectation || (!stored.rule.empty() && stored.rule != it->second.rule))
      throw InputError(file + ": its result of " + name + " was made of another test than this run's (its question " +
                       "or verdict differs: edited files, or other --litmus files); resume only the run that wrote it");
  }
}

void Suite::compile_ahead(const std::vector<litmus::Row>& rows) {
  if (!gpu_present_ || rows.empty()) return;
  std::vector<litmus::Row> to_run;
  std::vector<const litmus::Row*> running;  // the rows of to_run, without their controls
  for (const litmus::Row& row : rows) {
    const std::string name = litmus::case_name_of(row);
    if (kept_.count(name) || (options_.baseline && options_.baseline->skipped_by(name))) continue;
    running.push_back(&row);
    to_run.push_back(row);
    // Its controls run beside it (power): their kernels compile ahead too.
    if (options_.power)
      for (RowControl& c : controls_of(row)) to_run.push_back(std::move(c.row));
  }
  // And, with --deep-power, the second round of every assert row after all of those: most rows never
  // need theirs, but the cores are otherwise idle while the GPU runs, and a row that does need its round
  // finds it compiled (or moves it to the front: attach_row_power).
  if (options_.power && options_.deep_power)
    for (const litmus::Row* row : running)
      for (RowControl& c : second_controls_of(*row, kSecondRound)) to_run.push_back(std::move(c.row));
  try {
    engine().compile_ahead(to_run);
  } catch (const std::exception&) {
    // Nothing is lost: each row compiles when it runs, and reports what went wrong then.
  }
}

Suite::Step Suite::run(const litmus::Row& row) {
  const std::string name = litmus::case_name_of(row);
  const auto earlier = kept_.find(name);
  const bool resumed = earlier != kept_.end();
  const std::optional<std::string> skip = options_.baseline ? options_.baseline->skipped_by(name) : std::nullopt;
  CaseResult r = begin_row_result(row);
  const auto not_run_because = [&](const std::string& why) {
    r.status = Status::NotSupported;
    r.reason = why;
  };
  if (resumed) {
    r = earlier->second;
    Baseline::reset(r);
  } else if (skip) {
    not_run_because("not run: skipped by the baseline, " + *skip);
  } else if (!gpu_present_) {
    not_run_because(no_gpu_reason_);
  } else if (!device_lost().empty()) {
    not_run_because("not run: " + device_lost());
  } else {
    try {
      if (const std::string why = engine().why_not_here(row.test); !why.empty()) {
        not_run_because(why);
      } else {
        const auto started = std::chrono::steady_clock::now();
        const RowOutcomes& seen = engine().run(row);
        judge_row(row, seen, r);
        r.compile_seconds = seen.compile_seconds;
        r.compile_wait_seconds = seen.compile_wait_seconds;
        // A forbidden outcome: was it the GPU, or the compiler? The machine code the GPU ran decides.
        if (r.status == Status::Fail) {
          attribute_failure(engine().machine_code(row), r);
          if (options_.rerun_unoptimized) note_unoptimized(row, engine().run(row, 0), r);
        }
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (options_.power && seen.instances > 0) attach_row_power(row, r);
      }
    } catch (const NotSupportedError& e) {
      not_run_because(e.what());
    } catch (const codegen::CompileError& e) {
      r.status = Status::Error;
      r.reason = std::string(e.what()) + (e.log().empty() ? "" : "; NVRTC's log:\n" + e.log());
    } catch (const std::exception& e) {
      r.status = Status::Error;
      r.reason = e.what();
    }
  }
  results_.push_back(std::move(r));
  CaseResult& recorded = results_.back();
  if (options_.baseline) options_.baseline->apply(recorded);
  save(recorded);
  return {recorded, resumed};
}

// The results file is written after each case (nothing is lost on a crash), but not before some case has
// run or was resumed: a run that runs nothing here -- no GPU, every case not supported -- leaves a file
// that held another run's results as it was.
void Suite::save(const CaseResult& latest) {
  if (options_.json_file.empty()) return;
  if (!file_) file_.emplace(options_.json_file, context_block_, context_.expectations);
  file_->add(latest);  // results_.back(): each case is saved once, in order
  if (!anything_ran_)
    anything_ran_ = latest.status != Status::NotSupported || !options_.resume_file.empty() || options_.write_when_nothing_ran;
  if (anything_ran_) file_->write();
}

void Suite::attach_row_power(const litmus::Row& row, CaseResult& r) {
  std::deque<RowControl> controls;  // ControlRun points into it: a deque keeps its elements in place
  for (RowControl& c : controls_of(row)) controls.push_back(std::move(c));
  if (controls.empty()) return;
  std::vector<ControlRun> runs;
  run_controls(controls, 0, runs);
  r.power = row_power(runs);
  if (r.power->discriminating() || !options_.deep_power) return;
  // None showed it: the controls of two changes, compiled together on every core, then run.
  const std::size_t first = controls.size();
  std::vector<litmus::Row> ahead;
  for (RowControl& c : second_controls_of(row, kSecondRound)) {
    ahead.push_back(c.row);
    controls.push_back(std::move(c));
  }
  if (controls.size() == first) return;
  try {
    engine().compile_ahead(ahead, -1, /*next=*/true);  // needed now: before what is still queued
  } catch (const std::exception&) {
    // Each compiles when it runs, and says what went wrong then.
  }
  run_controls(controls, first, runs);
  r.power = row_power(runs);
}

void Suite::run_controls(const std::deque<RowControl>& controls, std::size_t from, std::vector<ControlRun>& runs) {
  for (std::size_t i = from; i < controls.size(); ++i) {
    const RowControl& c = controls[i];
    ControlRun run;
    run.control = &c;
    const auto started = std::chrono::steady_clock::now();
    try {
      if (const std::string why = engine().why_not_here(c.row.test); !why.empty()) {
        run.status = Status::NotSupported;
        run.reason = why;
      } else {
        run.seen = engine().run(c.row);
      }
    } catch (const NotSupportedError& e) {
      run.status = Status::NotSupported;
      run.reason = e.what();
    } catch (const std::exception& e) {
      run.status = Status::Error;
      run.reason = e.what();
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    runs.push_back(std::move(run));
    // One control that showed it is the evidence the row asks for; the rest would only cost time.
    if (showed_forbidden(runs.back())) return;
  }
}

Suite::Step Suite::run(const model::Case& c) {
  const auto earlier = kept_.find(c.name);
  const bool resumed = earlier != kept_.end();
  const std::optional<std::string> skip = options_.baseline ? options_.baseline->skipped_by(c.name) : std::nullopt;
  if (resumed) {
    results_.push_back(with_identity(earlier->second, c));
  } else if (skip) {
    results_.push_back(not_run(c, Status::NotSupported, "not run: skipped by the baseline, " + *skip));
  } else if (const std::string why = machine_ ? why_not_here(c, *machine_, options_.device) : ""; !why.empty()) {
    results_.push_back(not_run(c, Status::NotSupported, why));
  } else if (std::optional<CaseResult> measured = power_->measured(c)) {
    results_.push_back(std::move(*measured));  // it ran already, as another case's control
  } else {
    results_.push_back(executor_->run(c));
  }
  CaseResult& r = results_.back();
  if (!skip) power_->record(c, r);
  const bool ran = r.status == Status::Pass || r.status == Status::Fail;
  if (options_.power && ran && !r.power) power_->attach(c, r);
  if (options_.baseline) options_.baseline->apply(r);
  save(r);
  return {r, resumed};
}

}  // namespace vmmcheck::run
