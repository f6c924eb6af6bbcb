#include "run/execution/process_settings.hpp"

#include <stdlib.h>

#include "run/kit/mutants.hpp"

namespace vmmcheck::run {

void apply_to_process(const RunSettings& settings) {
  if (settings.allow_multicast) setenv("VMMCHECK_ALLOW_MULTICAST", "1", 1);
  if (!settings.mutant.empty()) {
    setenv(kMutantVariable, settings.mutant.c_str(), 1);
    active_mutant();  // throws for a name no mutant has
  }
}

}  // namespace vmmcheck::run
