#pragma once
// ipc (ipc.kernels, ipc.transport): the allocation exported as a POSIX file descriptor and imported by a
// second vmmcheck process, which maps it twice -- every mapping, in either process, a virtual alias of
// the same memory. A writer kernel in the exporting process, then a reader kernel in the importing one,
// ordered by an interprocess event, by the host (the writer synchronised, then a message), or not at all.
// Runner: patterns/ipc/runner.cpp (the importing side: harness/run/execution/peer_server.cpp).
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct Ipc : PatternDefaults, CountedBins {  // bins: the shared counting reader's
  Order order = Order::Host;
  ImportView view = ImportView::First;   // the importer's mapping the reader uses
  Exporter exporter = Exporter::Holds;   // released: handle and descriptor gone before the writer runs
  Transport transport = Transport::ScmRights;

  static constexpr std::string_view kName = "ipc";
  static constexpr std::array<Lives, 2> kMutants{{{Mutant::NoEventWait}, {Mutant::NoHostSync}}};
  static constexpr auto kAxes = std::make_tuple(
      axis("order", &Ipc::order, Order::Event, Order::Host, Order::None), axis("view", &Ipc::view),
      axis("exporter", &Ipc::exporter), axis("transport", &Ipc::transport));
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the reader saw the writer's value"},
      {Old, "old", true, "the reader saw the value from before the writer"},
      {Other, "other", true, "the reader saw neither value"},
  }};
};
static_assert(outcomes_match_bins<Ipc>());

// exporting process:  st [A] = 1            (a kernel, through its own mapping)
// importing process:  r = ld [B]            (a kernel, through one of its two mappings)  -- old: r != 1.
// An interprocess event, or the exporter's synchronisation followed by a message, is an operation
// boundary between them; order none has none. Processes add nothing the model needs: both mappings
// alias one location, and a boundary orders work wherever it was issued.
inline litmus::Shaped structure_of(const Ipc& c) {
  return {litmus::operation_pair("ipc", true, c.order != Order::None, 0, 1), {"new"}, {}};
}

// The order, removed from the case itself: the importer's reader without its wait for the event, or the
// request sent without the exporter's synchronisation -- the writer held until the reader starts, so
// nothing else keeps them apart (patterns/ipc/runner.cpp).
constexpr std::optional<Control<Ipc>> control_of(const Ipc& c) {
  if (c.order == Order::Event) return without(c, Mutant::NoEventWait, "the interprocess event");
  if (c.order == Order::Host) return without(c, Mutant::NoHostSync, "the exporter's synchronisation before its request");
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::Ipc& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::Ipc& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
