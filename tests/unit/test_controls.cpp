// Controls (docs/design.md, "Power"): every required or fault case of the shipped tables has one; it is
// the same case with one ordering mechanism removed, so the oracle no longer requires what the case
// requires; where the tables have that case, it is that case. And how power is recorded and reported.
#include <gtest/gtest.h>

#include <map>

#include "cli/console.hpp"
#include "model/controls.hpp"
#include "model/loader.hpp"
#include "model/oracle.hpp"
#include "model/select.hpp"
#include "run/power.hpp"
#include "run/report_json.hpp"

namespace vmmcheck::model {
namespace {

const CaseTable& shipped() {
  static const CaseTable t = load_cases(default_cases_path());
  return t;
}

const Case& find(const std::string& name) { return find_case(shipped().cases, name); }

TEST(Controls, EveryRequiredAndFaultCaseHasOneThatTheOracleDoesNotOrder) {
  int with_control = 0;
  for (const Case& c : shipped().cases) {
    if (c.verdict.expectation != Expectation::Required && c.verdict.expectation != Expectation::Fault) {
      EXPECT_FALSE(control_of(c, shipped().cases)) << c.name << " is not required: it needs no control";
      continue;
    }
    const std::optional<ControlCase> k = control_of(c, shipped().cases);
    ASSERT_TRUE(k) << c.name << " has no control";
    ++with_control;
    EXPECT_EQ(k->control.control_for, c.name);
    EXPECT_FALSE(k->mechanism.empty()) << c.name;
    EXPECT_EQ(k->control.pattern().name, c.pattern().name) << c.name;
    EXPECT_NE(definition_key(k->control.def), definition_key(c.def)) << c.name;
    // The mechanism is gone: what the oracle derives for the control differs from the case's verdict
    // (where the oracle models it: not ld.global.nc, nor the plain read-modify-write).
    if (!oracle_models(k->control)) continue;
    const Derivation d = derive(k->control);
    EXPECT_FALSE(d.expectation == c.verdict.expectation && d.outcomes == c.verdict.outcomes)
        << c.name << ": its control " << k->control.name << " is still " << to_string(d.expectation);
  }
  // every required and every fault case of the shipped tables (+6 multicast, +24 ipc/peer/fabric,
  // +34 on other kinds of memory, +12 proxy.texture, +9 proxy.async, +6 proxy.surface, +2 multicast.processes)
  EXPECT_EQ(with_control, 153 + 6 + 24 + 34 + 12 + 9 + 6 + 2);
}

TEST(Controls, AControlThatIsACaseOfTheTablesIsThatCase) {
  auto control_name = [](const std::string& n) { return control_of(find(n), shipped().cases)->control.name; };
  EXPECT_EQ(control_name("alias.kernels.kernel.kernel.event.alias"), "alias.kernels.kernel.kernel.none.alias");
  EXPECT_EQ(control_name("alias.kernels.memset.kernel_nc.graph.offset"), "alias.kernels.memset.kernel_nc.none.offset");
  EXPECT_EQ(control_name("alias.same_thread.alias.volatile.fence"), "alias.same_thread.alias.volatile.nofence");
  EXPECT_EQ(control_name("alias.same_thread.same.acquire_gpu.fence"), "alias.same_thread.alias.acquire_gpu.nofence");
  EXPECT_EQ(control_name("alias.mp.offset.flagsame.rfence.sys"), "alias.mp.offset.flagsame.nofence.sys");
  EXPECT_EQ(control_name("access.readwrite.write"), "access.none.write");
  EXPECT_EQ(control_name("access.subrange_inside.read"), "access.subrange_outside.read");
  EXPECT_EQ(control_name("access.read.write"), "access.readwrite.write");  // a fault case: a wider grant
}

TEST(Controls, AControlMadeForThePurposeSaysWhatItRemoved) {
  const ControlCase mp = *control_of(find("alias.mp.same.flagsame.nofence.gpu"), shipped().cases);
  EXPECT_EQ(mp.control.name, "alias.mp.same.flagsame.nofence.gpu.control");
  EXPECT_EQ(mp.mechanism, "release/acquire on the flag");
  EXPECT_EQ(std::get<patterns::MessagePassing>(mp.control.def).flag_sync, patterns::FlagSync::Relaxed);
  EXPECT_EQ(mp.control.verdict.expectation, Expectation::Undefined);
  EXPECT_EQ(mp.control.axis("flag_sync"), "relaxed");
  EXPECT_EQ(mp.control.axis("scope"), "gpu");
  const ControlCase rmw = *control_of(find("alias.rmw.same.sys"), shipped().cases);
  EXPECT_EQ(std::get<patterns::Rmw>(rmw.control.def).update, patterns::Update::Plain);
  const ControlCase resident = *control_of(find("alias.resident.same.weak.hostsignal"), shipped().cases);
  EXPECT_EQ(std::get<patterns::Resident>(resident.control.def).signal, patterns::Signal::None);
  const ControlCase life = *control_of(find("lifecycle.seam"), shipped().cases);
  EXPECT_EQ(std::get<patterns::Lifecycle>(life.control.def).interference, patterns::Interference::Overwrite);
  // An access control that must fault runs isolated, as the fault cases do.
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
