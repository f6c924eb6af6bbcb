// The oracle against the hand-written verdicts: the PTX memory model (harness/model/ptx_model.cpp) for
// the memory-model patterns, the contract structure for access rights and lifecycle. Every shipped
// verdict must be the oracle's, or carry an `override` with the citation that justifies departing from
// it; the loader refuses anything else (tests/unit/test_loader.cpp shows a wrong verdict refused).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "model/loader.hpp"
#include "model/oracle.hpp"
#include "patterns/registry.hpp"

namespace vmmcheck::model {
namespace {

using patterns::ContractStructure;

TEST(Oracle, EveryVerdictIsTheOraclesOrCitesWhyNot) {
  const CaseTable table = load_cases(default_cases_path());
  ASSERT_GE(table.cases.size(), 40u);
  std::map<std::string, std::size_t> departures;  // override verdict (file:line) -> cases it covers that depart
  std::set<std::string> overrides;
  std::size_t from_model = 0;
  for (const Case& c : table.cases) {
    if (!c.verdict.override_cite.empty()) overrides.insert(c.verdict.source);
    if (!oracle_models(c)) continue;  // api cases: see ApiVerdictsComeFromTheDriverDocumentation
    const Derivation d = derive(c);
    from_model += d.from_model;
    if (agrees(d, c.verdict)) continue;
    EXPECT_FALSE(c.verdict.override_cite.empty()) << c.name << " (verdict at " << c.verdict.source << "); oracle: " << d.steps.front();
    ++departures[c.verdict.source];
  }
  // Each override covers at least one case that departs from the model: none is stale.
  for (const std::string& source : overrides) EXPECT_GT(departures[source], 0u) << "override at " << source << " is not needed";
  // No shipped verdict departs from the model today (the resident-grid clause is in the model).
  std::size_t departing = 0;
  for (const auto& [source, n] : departures) departing += n;
  EXPECT_EQ(overrides.size(), 0u);
  EXPECT_EQ(departing, 0u);
  EXPECT_GE(from_model, 150u);  // 179 before alias.memory.mp and alias.memory.same_thread (28) retired to litmus rows
}

// Verdicts of expectation `model` are where the artifact's reading of the model requires what the ISA's
// does not (model/ptx_model.hpp, "Two readings").
TEST(Oracle, ModelVerdictsAreExactlyWhereOnlyTheArtifactRequires) {
  const CaseTable table = load_cases(default_cases_path());
  std::size_t model_cases = 0;
  for (const Case& c : table.cases) {
    if (c.verdict.expectation != Expectation::Model) continue;
    ++model_cases;
    ASSERT_TRUE(oracle_models(c)) << c.name;
    const Derivation d = derive(c);
    EXPECT_TRUE(d.from_model) << c.name;
    EXPECT_EQ(d.expectation, Expectation::Model) << c.name;
  }
  std::size_t derived_model = 0;
  for (const Case& c : table.cases)
    derived_model += oracle_models(c) && derive(c).expectation == Expectation::Model;
  EXPECT_EQ(derived_model, model_cases);
  // The 40 model cases (alias.mp and alias.mp_cta: a flag released and acquired through two aliases) are
  // litmus rows now; test_litmus_mirrors.cpp checks them, and RowsTheReadingsPartOnAreModelRows why.
  EXPECT_EQ(model_cases, 0u);
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
    EXPECT_TRUE(c.verdict.expectation == Expectation::Api || c.verdict.expectation == Expectation::Undefined ||
                c.verdict.expectation == Expectation::Rejected)
        << c.name;
    for (const std::string& status : c.verdict.outcomes) EXPECT_EQ(status.rfind("CUDA_", 0), 0u) << c.name;
  }
  EXPECT_EQ(api_cases, 17);
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

// The memory-model patterns' shapes, decided by the model: the rules the old hand-written oracle stated.
Derivation of(const patterns::CaseDef& def) {
  Case c;
  c.name = "t";
  c.def = def;
  return derive(c);
}

// Message passing (peer.mp's shape; the one-GPU shapes are litmus rows, test_litmus_mirrors.cpp): the
// flag's release/acquire orders the data read through the writer's address, not through an alias without
// the proxy fence; a relaxed flag orders nothing.
TEST(Oracle, ReleaseAcquireOrdersOneAddressAndAnAliasOnlyWithAProxyFence) {
  patterns::PeerMp m;
  EXPECT_EQ(of(m).expectation, Expectation::Required);
  m.data = patterns::View::Alias;  // no fence on the path
  EXPECT_EQ(of(m).expectation, Expectation::Undefined);
  m.fence = patterns::Fence::ProxyAlias;
  EXPECT_EQ(of(m).expectation, Expectation::Required);
  m.flag_sync = patterns::FlagSync::Relaxed;
  EXPECT_EQ(of(m).expectation, Expectation::Undefined);
}

// ld.global.nc of data written while the reader runs is outside the PTX model: the oracle says so
// rather than derive a verdict.
TEST(Oracle, NonCoherentLoadsAreOutsideTheModel) {
  patterns::Resident g;
  g.load = patterns::Load::NonCoherent;
  Case c;
  c.def = g;
  EXPECT_FALSE(oracle_models(c));
  EXPECT_NE(not_modelled_because(c).find("ld.global.nc"), std::string::npos);
}

TEST(Oracle, OperationBoundariesAndTheResidentGrid) {
  patterns::KernelPair k;
  k.view = patterns::View::Alias;
  EXPECT_EQ(of(k).expectation, Expectation::Required);
  k.order = patterns::Order::None;
  EXPECT_EQ(of(k).expectation, Expectation::Undefined);
  // The resident-grid clause: through an alias, the boundary does not reach a grid resident before it;
  // through the writer's own address the signal's release/acquire orders the read.
  patterns::Resident g;
  EXPECT_EQ(of(g).expectation, Expectation::Required);
  g.view = patterns::View::Alias;
  EXPECT_EQ(of(g).expectation, Expectation::Undefined);
  g.view = patterns::View::Same;
  g.flag_sync = patterns::FlagSync::Relaxed;
  EXPECT_EQ(of(g).expectation, Expectation::Undefined);
}

}  // namespace
}  // namespace vmmcheck::model
