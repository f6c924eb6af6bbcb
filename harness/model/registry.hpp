#pragma once
// The parsing layer's view of the pattern registry (patterns/registry.hpp): for every pattern its name,
// its axes with the tokens each may take, its outcomes, and the function that turns one token per axis
// into the typed case definition. Everything here is derived from the pattern types at compile time;
// this and the loader are the only code that reads axis tokens.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "patterns/registry.hpp"

namespace vmmcheck::model {

struct AxisInfo {
  std::string_view name;
  std::vector<std::string_view> tokens;      // the values this axis may take, in enum order
  std::vector<std::string_view> vocabulary;  // every value of its enum (a pattern may allow fewer)
  bool optional = false;                     // a table may leave it out; its cases then take `usual`
  std::string_view usual;
};

struct PatternInfo {
  std::string_view name;
  bool needs_gpu = true;
  bool driver_status_outcomes = false;  // see patterns::PatternDefaults
  std::vector<AxisInfo> axes;
  std::vector<patterns::Outcome> outcomes;  // histogram bins, in kernel order
  std::vector<patterns::Lives> mutants;     // the mutants its runner honours (vocabulary/mutants.hpp)
  // The typed definition from one token per axis (axis name -> token). A missing axis that is not
  // optional, or a token the axis does not allow, throws InputError: never a default.
  patterns::CaseDef (*make)(const std::map<std::string, std::string>& tokens_by_axis) = nullptr;

  const AxisInfo* find_axis(std::string_view axis) const;
  int outcome_index(std::string_view outcome) const;  // -1 when unknown
  bool accepts_outcome(std::string_view outcome) const;
  const patterns::Lives* lives(patterns::Mutant m) const;  // null when m does not live here
};

// One entry per alternative of patterns::CaseDef, in that order.
const std::vector<PatternInfo>& all_patterns();
const PatternInfo* find_pattern(std::string_view name);
const PatternInfo& pattern_of(const patterns::CaseDef& def);

// Every axis of a definition with its token, optional axes included, in the pattern's axis order: what
// the definition is, as text. Two definitions with the same tokens are the same case.
std::vector<std::pair<std::string_view, std::string_view>> tokens_of(const patterns::CaseDef& def);
// "pattern{axis=token,...}" over tokens_of: a key for "the same case" across names and tables.
std::string definition_key(const patterns::CaseDef& def);

}  // namespace vmmcheck::model
