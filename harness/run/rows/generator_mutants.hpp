#pragma once
// The mutants of the litmus kernel generator (vocabulary/mutants.hpp; docs/design.md, "Mutation
// self-test"): the test a row's kernel is generated from, with one mechanism taken out, while the row is
// judged by its file's test. `vmmcheck selftest` runs the generated rows under each and expects some row
// to Fail: the rows can tell a generator that drops an acquire, a release, a proxy fence, a scope or the
// atomicity of an add.
// The kernel's sites are the mutated test's, so the machine-code check holds the code to what was
// emitted and a Fail stays the GPU's. No GPU here.
#include <optional>
#include <string>
#include <vector>

#include "vocabulary/mutants.hpp"
#include "vocabulary/shape.hpp"

namespace vmmcheck::run {

// The mutants that change generated kernels: no-proxy-fence, relaxed-acquire, relaxed-release, narrow-scope,
// plain-rmw (an atom.add that sets a register becomes a load into it and a store of it plus the operand).
const std::vector<patterns::Mutant>& generator_mutants();

// `test` as the generator emits it under `mutant` (unchanged for none, or for a mutant of another runner).
patterns::litmus::Litmus as_generated(const patterns::litmus::Litmus& test, std::optional<patterns::Mutant> mutant);

}  // namespace vmmcheck::run
