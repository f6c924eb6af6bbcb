#include "model/registry.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "common/error.hpp"

namespace vmmcheck::model {
namespace {

template <typename A>
std::vector<std::string_view> allowed_tokens(const A& axis) {
  std::vector<std::string_view> out;
  for (const auto value : axis.allowed) out.push_back(patterns::token(value));
  return out;
}

template <typename A>
std::vector<std::string_view> vocabulary_of(const A&) {
  std::vector<std::string_view> out;
  for (const auto& word : patterns::Vocabulary<typename A::Enum>::words) out.push_back(word.token);
  return out;
}

// Sets the definition's field for one axis from its token.
template <typename P, typename A>
void set_field(P& def, const A& axis, const std::map<std::string, std::string>& tokens_by_axis) {
  using Enum = typename A::Enum;
  const auto it = tokens_by_axis.find(std::string(axis.name));
  if (it == tokens_by_axis.end()) {
    if (axis.optional) {
      def.*(axis.field) = axis.usual;
      return;
    }
    throw InputError("pattern '" + std::string(P::kName) + "' needs a value for axis '" + std::string(axis.name) + "'");
  }
  const std::optional<Enum> value = patterns::from_token<Enum>(it->second);
  if (!value || std::find(axis.allowed.begin(), axis.allowed.end(), *value) == axis.allowed.end())
    throw InputError("axis '" + std::string(axis.name) + "' of pattern '" + std::string(P::kName) + "' has no value '" +
                     it->second + "'");
  def.*(axis.field) = *value;
}

template <typename P>
patterns::CaseDef make(const std::map<std::string, std::string>& tokens_by_axis) {
  P def;
  std::apply([&](const auto&... axis) { (set_field(def, axis, tokens_by_axis), ...); }, P::kAxes);
  return def;
}

template <typename P>
PatternInfo info_of() {
  PatternInfo info;
  info.name = P::kName;
  info.needs_gpu = P::kNeedsGpu;
  info.driver_status_outcomes = P::kDriverStatusOutcomes;
  std::apply([&](const auto&... axis) {
    (info.axes.push_back(
         {axis.name, allowed_tokens(axis), vocabulary_of(axis), axis.optional, patterns::token(axis.usual)}),
     ...);
  }, P::kAxes);
  info.outcomes.assign(P::kOutcomes.begin(), P::kOutcomes.end());
  info.mutants.assign(P::kMutants.begin(), P::kMutants.end());
  info.make = &make<P>;
  return info;
}

template <std::size_t... I>
std::vector<PatternInfo> infos(std::index_sequence<I...>) {
  return {info_of<std::variant_alternative_t<I, patterns::CaseDef>>()...};
}

}  // namespace

const AxisInfo* PatternInfo::find_axis(std::string_view axis) const {
  for (const AxisInfo& a : axes)
    if (a.name == axis) return &a;
  return nullptr;
}

int PatternInfo::outcome_index(std::string_view outcome) const {
  for (std::size_t i = 0; i < outcomes.size(); ++i)
    if (outcomes[i].name == outcome) return static_cast<int>(i);
  return -1;
}

bool PatternInfo::accepts_outcome(std::string_view outcome) const {
  if (outcome_index(outcome) >= 0) return true;
  // Any CUresult name, for patterns whose outcomes are driver statuses.
  if (!driver_status_outcomes || outcome.rfind("CUDA_", 0) != 0 || outcome.size() < 6) return false;
  return outcome.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string_view::npos;
}

const patterns::Lives* PatternInfo::lives(patterns::Mutant m) const {
  for (const patterns::Lives& l : mutants)
    if (l.mutant == m) return &l;
  return nullptr;
}

const std::vector<PatternInfo>& all_patterns() {
  static const std::vector<PatternInfo> table = infos(std::make_index_sequence<std::variant_size_v<patterns::CaseDef>>{});
  return table;
}

const PatternInfo* find_pattern(std::string_view name) {
  for (const PatternInfo& p : all_patterns())
    if (p.name == name) return &p;
  return nullptr;
}

const PatternInfo& pattern_of(const patterns::CaseDef& def) { return all_patterns().at(def.index()); }

std::vector<std::pair<std::string_view, std::string_view>> tokens_of(const patterns::CaseDef& def) {
  return std::visit(
      [](const auto& d) {
        std::vector<std::pair<std::string_view, std::string_view>> out;
        std::apply([&](const auto&... axis) { (out.emplace_back(axis.name, patterns::token(d.*(axis.field))), ...); },
                   std::decay_t<decltype(d)>::kAxes);
        return out;
      },
      def);
}

std::string definition_key(const patterns::CaseDef& def) {
  std::string key(pattern_of(def).name);
  char sep = '{';
  for (const auto& [axis, token] : tokens_of(def)) {
    key += sep + std::string(axis) + "=" + std::string(token);
    sep = ',';
  }
  return key + "}";
}

}  // namespace vmmcheck::model
