#pragma once
// The mutant in force while a case runs (vocabulary/mutants.hpp says what each removes). A control case
// runs under its own mutant (MutantScope, set by the session for that case: model::Case::mutant); the
// self-test switches one on for a whole pass through the environment variable VMMCHECK_MUTANT (hidden:
// not in --help), which the pass's isolated children inherit.
#include <optional>
#include <string>
#include <string_view>

#include "vocabulary/mutants.hpp"

namespace vmmcheck::run {

using patterns::Mutant;

inline constexpr const char* kMutantVariable = "VMMCHECK_MUTANT";

// The mutant of the innermost MutantScope that names one, else the one VMMCHECK_MUTANT names (read on
// every call: selftest changes it between passes), else none. An unknown name is an InputError naming
// the known ones.
std::optional<Mutant> active_mutant();
bool mutated(Mutant m);

// Switches `m` on (when set) until the scope ends: the run of one control case.
class MutantScope {
 public:
  explicit MutantScope(std::optional<Mutant> m);
  ~MutantScope();
  MutantScope(const MutantScope&) = delete;
  MutantScope& operator=(const MutantScope&) = delete;

 private:
  std::optional<Mutant> previous_;
};

std::string known_mutants();  // "no-proxy-fence, no-async-fence, ...", for messages

}  // namespace vmmcheck::run
