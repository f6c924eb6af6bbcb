// Controls (docs/design.md, "Power"): every required or fault case of the shipped tables has one; it is
// the case itself under the mutant that removes its mechanism -- or, where no switch can (one virtual
// address), a separate case the oracle no longer orders, with the reason. And how power is recorded.
#include <gtest/gtest.h>

#include <map>

#include "cli/console.hpp"
#include "model/controls.hpp"
#include "model/loader.hpp"
#include "model/oracle.hpp"
#include "model/select.hpp"
#include "run/records/power_tally.hpp"
#include "run/records/report_json.hpp"

namespace vmmcheck::model {
namespace {

const CaseTable& shipped() {
  static const CaseTable t = load_cases(default_cases_path());
  return t;
}

const Case& find(const std::string& name) { return find_case(shipped().cases, name); }

TEST(Controls, EveryRequiredAndFaultCaseHasOneThatRemovesOneMechanism) {
  int same_case = 0, separate = 0;
  for (const Case& c : shipped().cases) {
    if (c.verdict.expectation != Expectation::Required && c.verdict.expectation != Expectation::Fault) {
      EXPECT_FALSE(control_of(c, shipped().cases)) << c.name << " is not required: it needs no control";
      continue;
    }
    const std::optional<ControlCase> k = control_of(c, shipped().cases);
    ASSERT_TRUE(k) << c.name << " has no control";
    EXPECT_EQ(k->control.control_for, c.name);
    EXPECT_FALSE(k->mechanism.empty()) << c.name;
    EXPECT_EQ(k->control.pattern().name, c.pattern().name) << c.name;
    if (k->mutant) {
      // The case itself -- the same definition, launches and order -- under a mutant its runner honours.
      ++same_case;
      EXPECT_EQ(definition_key(k->control.def), definition_key(c.def)) << c.name;
      EXPECT_EQ(k->control.mutant, k->mutant) << c.name;
      EXPECT_EQ(k->control.name, c.name + ".control");
      EXPECT_NE(c.pattern().lives(*k->mutant), nullptr) << c.name << ": its pattern does not declare " << patterns::name_of(*k->mutant);
      EXPECT_EQ(k->control.verdict.expectation, Expectation::Undefined) << c.name;
      if (patterns::word_of(*k->mutant).may_fault) EXPECT_TRUE(k->control.isolate) << c.name;
      continue;
    }
    // A separate case: it says why, and the oracle no longer requires what the case requires.
    ++separate;
    EXPECT_FALSE(k->separate_because.empty()) << c.name;
    EXPECT_FALSE(k->control.mutant) << c.name;
    EXPECT_NE(definition_key(k->control.def), definition_key(c.def)) << c.name;
    ASSERT_TRUE(oracle_models(k->control)) << c.name;
    const Derivation d = derive(k->control);
    EXPECT_FALSE(d.expectation == c.verdict.expectation && d.outcomes == c.verdict.outcomes)
        << c.name << ": its control " << k->control.name << " is still " << to_string(d.expectation);
  }
  // Every required and fault case of the shipped tables has one (107 + 6 multicast, + 24 ipc/peer/fabric,
  // + 14 on other kinds of memory, + 12 proxy.texture, + 9 proxy.async, + 6 proxy.surface, + 2
  // multicast.processes; alias.rmw's two required cases, alias.mp's and alias.mp_cta's 28,
  // alias.same_thread's 16 and alias.memory.mp's and alias.memory.same_thread's 20 are litmus rows now,
  // their controls the rows' own). None is a separate case any more: the only ones were
  // alias.memory.same_thread's through one virtual address, whose rows' controls are derived.
  EXPECT_EQ(same_case + separate, 107 + 6 + 24 + 14 + 12 + 9 + 6 + 2);
  EXPECT_EQ(separate, 0);
}

TEST(Controls, AControlIsTheCaseItselfUnderTheMutantOfItsMechanism) {
  auto mutant = [](const std::string& n) {
    const ControlCase k = *control_of(find(n), shipped().cases);
    EXPECT_EQ(k.control.name, n + ".control");
    return std::string(patterns::name_of(*k.mutant));
  };
  EXPECT_EQ(mutant("alias.kernels.kernel.kernel.stream.alias"), "no-stream-order");
  EXPECT_EQ(mutant("alias.kernels.kernel.kernel.event.alias"), "no-event-wait");
  EXPECT_EQ(mutant("alias.kernels.memcpy.kernel.host.same"), "no-host-sync");
  EXPECT_EQ(mutant("alias.kernels.memset.kernel.graph.offset"), "no-graph-edge");
  EXPECT_EQ(mutant("alias.resident.same.weak.hostsignal"), "no-resident-signal");
  EXPECT_EQ(mutant("proxy.async.g2s.alias.bothfences"), "no-proxy-fence");
  EXPECT_EQ(mutant("peer.mp.same.nofence"), "relaxed-flag");
  EXPECT_EQ(mutant("lifecycle.seam"), "stray-write");
  EXPECT_EQ(mutant("access.readwrite.write"), "no-grant");
  EXPECT_EQ(mutant("access.read.write"), "full-grant");  // a fault case: the missing right given
  EXPECT_EQ(mutant("ipc.kernels.event.first.holds.scm_rights"), "no-event-wait");
  EXPECT_EQ(mutant("ipc.kernels.host.first.holds.pidfd_getfd"), "no-host-sync");
  EXPECT_EQ(mutant("proxy.texture.linear.alias.event.nofence"), "no-event-wait");
  // A control that may fault (an access without its grant) runs isolated; one that may not, in process.
  EXPECT_TRUE(control_of(find("access.readwrite.read"), shipped().cases)->control.isolate);
  EXPECT_FALSE(control_of(find("access.none.read"), shipped().cases)->control.isolate);
}

TEST(Controls, ViolationsAreTheOutcomesTheCaseForbids) {
  const Case& c = find("alias.kernels.kernel.kernel.event.alias");  // required: only "new"
  EXPECT_EQ(violations_of(c, {{"new", 90}, {"old", 7}, {"other", 3}}), 10u);
  EXPECT_EQ(violations_of(c, {{"new", 100}, {"old", 0}, {"other", 0}}), 0u);
  // A stall is not a reordering: timeouts alone show no power.
  EXPECT_EQ(violations_of(c, {{"new", 90}, {"old", 0}, {"timeout", 10}}), 0u);
  EXPECT_EQ(violations_of(c, {{"new", 88}, {"old", 2}, {"timeout", 10}}), 2u);
  const Case& f = find("access.none.read");  // fault: only "fault"
  EXPECT_EQ(violations_of(f, {{"completed", 1}, {"fault", 0}, {"wrong", 0}}), 1u);
}

}  // namespace
}  // namespace vmmcheck::model

namespace vmmcheck::run {
namespace {

CaseResult with_power(const std::string& name, model::Expectation e, std::uint64_t violations) {
  CaseResult r;
  r.name = name;
  r.expectation = e;
  r.status = Status::Pass;
  Power p;
  p.control = name + ".control";
  p.mechanism = "the event";
  p.status = Status::Pass;
  p.histogram = {{"new", 100 - violations}, {"old", violations}};
  p.instances = 100;
  p.violations = violations;
  r.power = p;
  return r;
}

TEST(Power, TalliedAndPrinted) {
  const std::vector<CaseResult> results = {with_power("a.b.c", model::Expectation::Required, 5),
                                           with_power("a.b.d", model::Expectation::Required, 0),
                                           with_power("a.f.g", model::Expectation::Fault, 1), CaseResult{}};
  const PowerTally t = tally_power(results);
  EXPECT_EQ(t.required, 2u);
  EXPECT_EQ(t.required_discriminating, 1u);
  EXPECT_EQ(t.fault_discriminating, 1u);
  EXPECT_EQ(t.not_discriminating, std::vector<std::string>{"a.b.d"});
  EXPECT_EQ(cli::power_lines(t),
            "power: 1 of 2 required and 1 of 1 fault cases discriminating here (their controls showed a forbidden outcome)\n"
            "not discriminating: a.b.d\n");
  EXPECT_EQ(cli::power_summary(results[0]), "  power: yes (without the event: 5% forbidden)");
  EXPECT_EQ(cli::power_summary(results[1]), "  power: NO (without the event: 0 of 100 forbidden)");
  EXPECT_EQ(cli::power_summary(results[3]), "");
}

TEST(Power, AControlThatDidNotRunIsNotDiscriminating) {
  CaseResult r = with_power("a.b.c", model::Expectation::Required, 0);
  r.power->status = Status::Crash;
  r.power->violations = 3;  // whatever it counted before it crashed
  EXPECT_FALSE(r.power->discriminating());
  EXPECT_EQ(cli::power_summary(r), "  power: unknown (control Crash)");
  r.power->status = Status::Fail;  // failed its own verdict, but its outcomes were counted
  EXPECT_TRUE(r.power->discriminating());
}

TEST(Power, RoundTripsThroughTheResultsJson) {
  CaseResult r = with_power("alias.kernels.x.y", model::Expectation::Required, 7);
  r.family = "alias.kernels";
  r.histogram = {{"new", 10}};
  r.instances = 10;
  r.power->axes = {{"order", "none"}, {"view", "alias"}};
  const Json j = to_json(r);
  EXPECT_EQ(j["power"]["discriminating"], true);
  EXPECT_EQ(j["power"]["histogram"]["old"], 7);
  const CaseResult back = result_from_json(j, "test");
  ASSERT_TRUE(back.power);
  EXPECT_EQ(back.power->control, "alias.kernels.x.y.control");
  EXPECT_EQ(back.power->violations, 7u);
  EXPECT_EQ(back.power->axes, r.power->axes);
  EXPECT_TRUE(back.power->discriminating());
  CaseResult none = r;
  none.power.reset();
  EXPECT_FALSE(to_json(none).contains("power"));
}

}  // namespace
}  // namespace vmmcheck::run
