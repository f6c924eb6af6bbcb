#include "run/kit/mutants.hpp"

#include <cstdlib>

#include "common/error.hpp"

namespace vmmcheck::run {
namespace {

// The scoped mutant. The runners read it on the thread that runs cases; the MPI ring's serving thread
// runs no case and never reads it.
std::optional<Mutant> scoped;

}  // namespace

std::string known_mutants() {
  std::string known;
  for (const patterns::MutantWord& m : patterns::kMutantWords) known += (known.empty() ? "" : ", ") + std::string(m.name);
  return known;
}

std::optional<Mutant> active_mutant() {
  if (scoped) return scoped;
  const char* value = std::getenv(kMutantVariable);
  if (value == nullptr || *value == '\0') return std::nullopt;
  if (const auto m = patterns::mutant_named(value)) return m;
  throw InputError(std::string(kMutantVariable) + "='" + value + "' is not a mutant (" + known_mutants() + ")");
}

bool mutated(Mutant m) { return active_mutant() == m; }

MutantScope::MutantScope(std::optional<Mutant> m) : previous_(scoped) {
  if (m) scoped = m;
}

MutantScope::~MutantScope() { scoped = previous_; }

}  // namespace vmmcheck::run
