#include "run/mutants.hpp"

#include <cstdlib>

#include "common/error.hpp"

namespace vmmcheck::run {

std::optional<Mutant> mutant_named(std::string_view name) {
  for (const MutantInfo& m : kMutants)
    if (m.name == name) return m.mutant;
  return std::nullopt;
}

std::string known_mutants() {
  std::string known;
  for (const MutantInfo& m : kMutants) known += (known.empty() ? "" : ", ") + std::string(m.name);
  return known;
}

std::string_view name_of(Mutant m) { return kMutants[static_cast<std::size_t>(m)].name; }

std::optional<Mutant> active_mutant() {
  const char* value = std::getenv(kMutantVariable);
  if (value == nullptr || *value == '\0') return std::nullopt;
  if (const auto m = mutant_named(value)) return m;
  throw InputError(std::string(kMutantVariable) + "='" + value + "' is not a mutant (" + known_mutants() + ")");
}

bool mutated(Mutant m) { return active_mutant() == m; }

}  // namespace vmmcheck::run
