#pragma once
// `vmmcheck selftest`: the mutation self-test (docs/design.md, "Mutation self-test"). The suite runs
// once as built, then once per mutant (vocabulary/mutants.hpp) with the cases of the patterns it lives
// in, each pass in a child `vmmcheck run`. The report is a matrix, each mutant against each pattern it
// lives in: caught when a case *of that pattern* that passed as built went wrong under the mutant. A
// pair no case catches is a finding (exit 1), unless the pattern declares why the hardware may not show
// it (Lives::unobservable), or no case of the pattern could run here.
#include <iosfwd>

#include "cli/options.hpp"

namespace vmmcheck::cli {

int cmd_selftest(const Options& o, std::ostream& out, std::ostream& err);

}  // namespace vmmcheck::cli
