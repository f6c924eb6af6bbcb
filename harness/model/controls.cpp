#include "model/controls.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/oracle.hpp"

namespace vmmcheck::model {
namespace {

struct Derived {
  patterns::CaseDef def;
  std::string_view mechanism;
  std::optional<patterns::Mutant> mutant;
  std::string_view separate_because;
};

template <typename P>
std::optional<Derived> derived(const P& d) {
  const auto control = patterns::control_of(d);
  if (!control) return std::nullopt;
  // A control can only name a mutant its pattern's runner honours (its kMutants).
  if (control->mutant && !patterns::lives_in<P>(*control->mutant))
    throw std::logic_error(std::string(P::kName) + ": a control names the mutant " +
                           std::string(patterns::name_of(*control->mutant)) + ", which its runner does not declare");
  return Derived{control->def, control->mechanism, control->mutant, control->separate_because};
}

std::optional<Derived> pattern_control(const patterns::CaseDef& def) {
  return std::visit([](const auto& d) { return derived(d); }, def);
}

// The case itself, under `m`: named after it, with every axis as the case has it.
Case same_case_control(const Case& c, patterns::Mutant m, std::string_view mechanism) {
  Case k = c;
  k.name = c.name + ".control";
  k.title = c.title + " (control)";
  k.mutant = m;
  k.isolate = c.isolate || patterns::word_of(m).may_fault;
  k.verdict.expectation = Expectation::Undefined;
  k.verdict.outcomes.clear();
  k.verdict.rule = "The control of " + c.name + ": the case itself with " + std::string(mechanism) + " removed (mutant " +
                   std::string(patterns::name_of(m)) + ").";
  k.verdict.why = "Run only to show that the case can fail on this GPU (docs/design.md, Power).";
  k.verdict.override_cite.clear();
  return k;
}

// A case made for the purpose: named after the case it controls, every axis spelled out.
Case made_control(const Case& c, const patterns::CaseDef& def, std::string_view mechanism) {
  Case k;
  k.name = c.name + ".control";
  k.family = c.family;
  k.title = c.title + " (control)";
  k.def = def;
  k.labels = c.labels;
  k.isolate = c.isolate;
  for (const auto& [axis, token] : tokens_of(def)) {
    const auto original = std::find_if(c.path.begin(), c.path.end(), [&](const PathStep& s) { return s.axis == axis; });
    AxisValue v;
    if (original != c.path.end() && original->value.value == token) {
      v = original->value;  // unchanged
    } else {
      v.value = v.name = std::string(token);
      v.description = std::string(mechanism) + " removed" +
                      (original != c.path.end() ? " (the case has " + original->value.value + ")" : "");
    }
    k.path.push_back({std::string(axis), v});
  }
  k.snippet = c.snippet;
  k.verdict.expectation = Expectation::Undefined;
  k.verdict.rule = "The control of " + c.name + ": the same case with " + std::string(mechanism) + " removed.";
  k.verdict.citation = c.verdict.citation;
  k.verdict.why = "Run only to show that the case can fail on this GPU (docs/design.md, Power).";
  k.verdict.source = c.verdict.source;
  k.source = c.source;
  return k;
}

}  // namespace

std::optional<ControlCase> control_of(const Case& c, const std::vector<Case>& table) {
  if (c.verdict.expectation != Expectation::Required && c.verdict.expectation != Expectation::Fault) return std::nullopt;
  const std::optional<Derived> derived = pattern_control(c.def);
  if (!derived) return std::nullopt;
  const std::string key = definition_key(derived->def);
  ControlCase out;
  out.mechanism = std::string(derived->mechanism);
  out.mutant = derived->mutant;
  out.separate_because = std::string(derived->separate_because);
  if (derived->mutant) {
    out.control = same_case_control(c, *derived->mutant, derived->mechanism);
    out.control.control_for = c.name;
    return out;
  }
  const auto same = std::find_if(table.begin(), table.end(), [&](const Case& t) { return definition_key(t.def) == key; });
  out.control = same != table.end() ? *same : made_control(c, derived->def, derived->mechanism);
  out.control.control_for = c.name;
  // A control that must fault (an access without its grant) runs where a fault ends only a child.
  if (oracle_models(out.control) && derive(out.control).expectation == Expectation::Fault) out.control.isolate = true;
  return out;
}

bool shows_order(const std::string& outcome) { return outcome != "timeout"; }

std::uint64_t violations_of(const Case& c, const std::vector<std::pair<std::string, std::uint64_t>>& histogram) {
  std::uint64_t n = 0;
  for (const auto& [outcome, count] : histogram)
    if (shows_order(outcome) && std::find(c.verdict.outcomes.begin(), c.verdict.outcomes.end(), outcome) == c.verdict.outcomes.end()) n += count;
  return n;
}

}  // namespace vmmcheck::model
