#include "run/execution/power.hpp"

#include "model/controls.hpp"

namespace vmmcheck::run {

std::optional<CaseResult> PowerCheck::measured(const model::Case& c) const {
  const auto it = by_name_.find(c.name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

void PowerCheck::record(const model::Case& c, const CaseResult& r) { by_name_.emplace(c.name, r); }

void PowerCheck::attach(const model::Case& c, CaseResult& r) {
  const std::optional<model::ControlCase> control = model::control_of(c, table_);
  if (!control) return;
  const model::Case& k = control->control;
  auto it = by_name_.find(k.name);
  if (it == by_name_.end()) it = by_name_.emplace(k.name, executor_.run(k)).first;
  const CaseResult& measured = it->second;

  Power p;
  p.control = k.name;
  p.mechanism = control->mechanism;
  if (control->mutant) p.mutant = std::string(patterns::name_of(*control->mutant));
  p.separate_because = control->separate_because;
  for (const auto& [axis, token] : model::tokens_of(k.def)) p.axes.emplace_back(axis, token);
  p.status = measured.status;
  p.histogram = measured.histogram;
  p.instances = measured.instances;
  // A control that failed its own verdict still measured its outcomes; one that did not run did not.
  const bool ran = measured.status == Status::Pass || measured.status == Status::Fail;
  p.violations = ran ? model::violations_of(c, measured.histogram) : 0;
  if (!ran) p.reason = std::string(to_string(measured.status)) + ": " + measured.reason;
  r.power = std::move(p);
}

}  // namespace vmmcheck::run
