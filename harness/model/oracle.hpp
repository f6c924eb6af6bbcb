#pragma once
// The oracle derives a case's expectation from its structure alone: which view each access uses, which
// agent performs it, and what orders the agents. It never reads the hand-written verdict; a CPU test
// checks that the two agree for every case, so each rule is stated twice, independently. Each pattern
// says what its structure is (structure_of in patterns/<pattern>.hpp); the oracle knows no pattern.
#include <string>
#include <vector>

#include "model/case.hpp"
#include "patterns/structure.hpp"

namespace vmmcheck::model {

struct Derivation {
  Expectation expectation = Expectation::Undefined;
  std::vector<std::string> outcomes;  // allowed outcomes of a required or fault case
  std::vector<std::string> steps;     // the rules applied, in order, for `explain`
};

Derivation derive(const patterns::AccessStructure& s);
Derivation derive(const patterns::ContractStructure& s);

// False for patterns with no model (patterns::NotModelled): api cases, whose expected status can come
// only from the driver API documentation cited in their verdicts, and the planted self-test.
bool oracle_models(const Case& c);
// Why a case is not modelled; empty when it is.
std::string not_modelled_because(const Case& c);
// The derivation of a modelled case; throws std::invalid_argument for one that is not.
Derivation derive(const Case& c);

}  // namespace vmmcheck::model
