#pragma once
// `vmmcheck selftest`: the mutation self-test (docs/design.md, "Mutation self-test"). The suite runs
// once as built, then once per mutant (run/mutants.hpp) with that mutant's cases, each pass in a child
// `vmmcheck run`; a case that passed as built and goes wrong under the mutant caught it. A mutant no
// case catches is a finding: it is reported, and the exit status is 1.
#include <iosfwd>

#include "cli/options.hpp"

namespace vmmcheck::cli {

int cmd_selftest(const Options& o, std::ostream& out, std::ostream& err);

}  // namespace vmmcheck::cli
