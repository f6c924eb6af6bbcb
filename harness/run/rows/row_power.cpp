#include "run/rows/row_power.hpp"

#include <algorithm>
#include <iterator>

#include "litmus/derived_controls.hpp"
#include "litmus/rows.hpp"

namespace vmmcheck::run {

std::vector<RowControl> controls_of(const litmus::Row& row) {
  std::vector<RowControl> out;
  if (row.expect != litmus::Expect::Assert) return out;
  if (row.control_row) {
    RowControl c;
    c.name = litmus::case_name_of(*row.control_row);
    c.row = *row.control_row;
    // Asked the row's question: how often did the control show what the row forbids?
    c.row.condition = row.condition;
    c.row.expect = litmus::Expect::Assert;
    c.row.control_row.reset();
    c.token = litmus::command_token(c.row);
    c.mechanism = "the permit row " + row.control_row->name + " the file names as this row's control";
    out.push_back(std::move(c));
  }
  std::vector<RowControl> derived;
  for (litmus::DerivedControl& d : litmus::derived_controls(row))
    derived.push_back({litmus::case_name_of(row) + "." + d.change, std::move(d.row), d.change, d.mechanism});
  // A run stops at the first control that shows the outcome, so the order is what it costs and what
  // the row's power records. First the one with every ordering taken away (ctl_unordered): the control
  // that shows the outcome most often where the GPU shows it at all, as a hand-written case's control
  // takes its whole mechanism away (on the H200 the writer's release relaxed alone showed alias_mp's .gpu
  // message passing in 192 of 10M, the hand-written relaxed flag in 4.6%). Last, a scope narrowed to .cta:
  // it leaves a spin across CTAs waiting out its bound (tens of milliseconds an instance batch), where the
  // other changes run in a few. Otherwise the derived order stands.
  std::stable_partition(derived.begin(), derived.end(),
                        [](const RowControl& c) { return c.token.find("narrow_") == std::string::npos; });
  std::stable_partition(derived.begin(), derived.end(), [](const RowControl& c) { return c.token == "ctl_unordered"; });
  out.insert(out.end(), std::make_move_iterator(derived.begin()), std::make_move_iterator(derived.end()));
  return out;
}

std::vector<RowControl> second_controls_of(const litmus::Row& row, std::size_t most) {
  std::vector<RowControl> first, likely, rest;
  for (litmus::DerivedControl& d : litmus::derived_controls(row, litmus::Depth::DeepPairs)) {
    const bool often = d.change.find("weak_") != std::string::npos || d.change.find("via_") != std::string::npos;
    // One ordering taken from each of two threads: "ctl_drop_t2_1_and_drop_t3_1".
    const bool ordering = d.change.rfind("ctl_drop_", 0) == 0 || d.change.rfind("ctl_relax_", 0) == 0 ||
                          d.change.rfind("ctl_acqrel_", 0) == 0;
    (d.symmetric && ordering ? first : often ? likely : rest)
        .push_back({litmus::case_name_of(row) + "." + d.change, std::move(d.row), d.change, d.mechanism});
  }
  first.insert(first.end(), std::make_move_iterator(likely.begin()), std::make_move_iterator(likely.end()));
  first.insert(first.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  if (first.size() > most) first.resize(most);
  return first;
}

bool showed_forbidden(const ControlRun& run) {
  if (!run.seen) return false;
  CaseResult judged;
  judge_row(run.control->row, *run.seen, judged);
  return judged.weak > 0;
}

namespace {

double rate(const Power::Tried& t) {
  return t.instances ? static_cast<double>(t.violations) / static_cast<double>(t.instances) : 0.0;
}

}  // namespace

Power row_power(const std::vector<ControlRun>& runs) {
  Power p;
  p.separate_because =
      "a litmus row's controls are tests of their own: the row with one ordering taken away, or a permit row its file names";
  std::optional<std::size_t> best;
  std::vector<CaseResult> judged(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const ControlRun& run = runs[i];
    Power::Tried t;
    t.control = run.control->name;
    t.mechanism = run.control->mechanism;
    t.seconds = run.seconds;
    if (run.seen) {
      t.compile_wait_seconds = run.seen->compile_wait_seconds;
      // Judged as the row is: its instances that met the control's preconditions (no spin at its bound)
      // and broke the row's condition are the forbidden outcome shown.
      judge_row(run.control->row, *run.seen, judged[i]);
      // Pass, or Fail when the control itself showed an outcome the model forbids of it (its reason
      // says which): either way its outcomes were counted.
      t.status = judged[i].status == Status::Fail ? Status::Fail : Status::Pass;
      if (t.status == Status::Fail) t.reason = judged[i].reason;
      t.instances = judged[i].judged.value_or(judged[i].instances);
      t.violations = judged[i].weak;
    } else {
      t.status = run.status;
      t.reason = run.reason;
    }
    p.tried.push_back(std::move(t));
    if (!best || rate(p.tried[i]) > rate(p.tried[*best])) best = i;
  }
  if (!best) return p;
  const Power::Tried& top = p.tried[*best];
  p.control = top.control;
  p.mechanism = top.mechanism;
  p.axes = {{"control", runs[*best].control->token}};
  p.status = top.status;
  p.histogram = judged[*best].histogram;
  p.instances = top.instances;
  p.violations = top.violations;
  p.reason = top.reason;
  return p;
}

}  // namespace vmmcheck::run
