// The oracle and the hand-written verdicts are two independent derivations of the rules: they must agree
// on every case of the shipped tables. Flipping one verdict in a case file makes this fail.
#include <gtest/gtest.h>

#include "model/loader.hpp"
#include "model/oracle.hpp"
#include "patterns/registry.hpp"

namespace vmmcheck::model {
namespace {

using patterns::AccessStructure;
using patterns::ContractStructure;
using patterns::Load;
using patterns::Scope;
using patterns::Sync;

TEST(Oracle, AgreesWithEveryHandWrittenVerdict) {
  const CaseTable table = load_cases(default_cases_path());
  ASSERT_GE(table.cases.size(), 40u);
  for (const Case& c : table.cases) {
    if (!oracle_models(c)) continue;  // api cases: see ApiVerdictsComeFromTheDriverDocumentation
    const Derivation d = derive(c);
    EXPECT_EQ(to_string(d.expectation), std::string(to_string(c.verdict.expectation)))
        << c.name << " (verdict at " << c.verdict.source << "); oracle: " << d.steps.back();
    if (d.expectation != Expectation::Undefined) EXPECT_EQ(d.outcomes, c.verdict.outcomes) << c.name;
  }
}

// The oracle cannot derive a driver status; an api case is `api` only where the driver API documentation
// states the status, and says so in its citation. Everything else about a misuse is `undefined`.
TEST(Oracle, ApiVerdictsComeFromTheDriverDocumentation) {
  const CaseTable table = load_cases(default_cases_path());
  int api_cases = 0;
  for (const Case& c : table.cases) {
    if (!std::holds_alternative<patterns::Api>(c.def)) continue;
    ++api_cases;
    EXPECT_NE(c.verdict.citation.find("CUDA Driver API"), std::string::npos) << c.name;
    EXPECT_TRUE(c.verdict.expectation == Expectation::Api || c.verdict.expectation == Expectation::Undefined) << c.name;
    for (const std::string& status : c.verdict.outcomes) EXPECT_EQ(status.rfind("CUDA_", 0), 0u) << c.name;
  }
  EXPECT_EQ(api_cases, 8);
}

TEST(Oracle, AccessRightsDecideBetweenFaultAndCompletion) {
  ContractStructure s;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.granted = false;
  EXPECT_EQ(derive(s).expectation, Expectation::Fault);
  s.granted = true;
  s.write = true;
  s.write_permitted = false;
  EXPECT_EQ(derive(s).expectation, Expectation::Fault);
  s.write = false;  // a read through a read-only grant
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.mapping_outlives_access = false;
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
}

TEST(Oracle, ProgramOrderNeedsOneProxyOrAFence) {
  AccessStructure s;
  s.sync = Sync::ProgramOrder;
  s.write_in_reader_lifetime = true;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.same_proxy = false;
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
  s.proxy_fence = true;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.load = Load::NonCoherent;  // written during the kernel: ld.global.nc is outside its contract
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
}

TEST(Oracle, ReleaseAcquireNeedsAWideEnoughScopeAndOneFlagAddress) {
  AccessStructure s;
  s.sync = Sync::ReleaseAcquire;
  s.write_in_reader_lifetime = true;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.scope = Scope::Cta;
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
  s.scope = Scope::Sys;
  s.flag_same_proxy = false;
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
  s.flag_same_proxy = true;
  s.same_proxy = false;
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
  s.proxy_fence = true;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
}

TEST(Oracle, AtomicityNeedsOneAddressAndAScopeThatHoldsEveryThread) {
  AccessStructure s;
  s.sync = Sync::Atomicity;
  s.write_in_reader_lifetime = true;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  EXPECT_EQ(derive(s).outcomes, std::vector<std::string>{"exact"});
  s.scope = Scope::Sys;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.same_proxy = false;  // through two aliases: the adds do not overlap
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
  s.same_proxy = true;
  s.scope = Scope::Cta;  // threads of different CTAs
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
}

TEST(Oracle, OperationBoundariesAndTheResidentGridClause) {
  AccessStructure s;
  s.same_proxy = false;
  s.sync = Sync::OperationBoundary;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.load = Load::NonCoherent;  // read-only for the reader's lifetime: still defined
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
  s.sync = Sync::None;
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
  s.load = Load::Weak;
  s.sync = Sync::ResidentSignal;
  s.write_in_reader_lifetime = true;
  EXPECT_EQ(derive(s).expectation, Expectation::Undefined);
  s.same_proxy = true;
  EXPECT_EQ(derive(s).expectation, Expectation::Required);
}

}  // namespace
}  // namespace vmmcheck::model
