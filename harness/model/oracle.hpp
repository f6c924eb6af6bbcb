#pragma once
// The oracle derives a case's expectation without reading its hand-written verdict. For the memory-model
// patterns it asks the PTX proxy model (model/ptx_model.hpp) about the case's litmus shape; for the VMM
// contract patterns (access rights, lifecycle) it reads their contract structure. Each pattern says
// which (structure_of in patterns/<pattern>.hpp); the oracle knows no pattern by name. The loader
// refuses a table whose verdict departs from the oracle without an `override` that cites why.
#include <optional>
#include <string>
#include <vector>

#include "model/case.hpp"
#include "vocabulary/structure.hpp"

namespace vmmcheck::model {

struct Derivation {
  Expectation expectation = Expectation::Undefined;
  std::vector<std::string> outcomes;  // allowed outcomes of a required or fault case
  std::vector<std::string> steps;     // the rules applied, in order, for `explain`
  bool from_model = false;            // decided by the PTX model (else by the contract structure)
};

// The PTX model's decision on a litmus shape, from both its readings (model/ptx_model.hpp): required
// with `allowed` as the outcomes when the ISA's reading forbids the weak outcome, model when only the
// artifact's forbids it, undefined when both allow it.
Derivation derive(const patterns::litmus::Litmus& shape, const std::vector<std::string>& allowed);
Derivation derive(const patterns::ContractStructure& s);

// False for cases nothing models: api cases, whose expected status can come only from the driver API
// documentation cited in their verdicts, the planted self-test, and cases the PTX model does not
// cover (ld.global.nc, a plain read-modify-write).
bool oracle_models(const Case& c);
// Whether a verdict says what the oracle derived: the same expectation and, unless undefined, the same
// allowed outcomes.
bool agrees(const Derivation& d, const Verdict& v);

// Why a case is not modelled; empty when it is.
std::string not_modelled_because(const Case& c);
// The derivation of a modelled case; throws std::invalid_argument for one that is not.
Derivation derive(const Case& c);

// The litmus shape the PTX model decides for the case (its pattern's structure_of); none for a case
// the model does not cover or a contract case.
std::optional<patterns::litmus::Litmus> litmus_shape(const Case& c);

}  // namespace vmmcheck::model
