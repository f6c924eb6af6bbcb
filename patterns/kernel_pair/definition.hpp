#pragma once
// kernel_pair (alias.kernels): a writing operation through view A, then a reading operation through a
// view, ordered by a stream, an event, the host, a graph edge, or nothing. Kernels: kernels/operations.cu.
#include "vocabulary/pattern.hpp"

namespace vmmcheck::patterns {

struct KernelPair : PatternDefaults, CountedBins {  // bins: the shared counting reader's
  WriterOp writer = WriterOp::Kernel;
  ReaderOp reader = ReaderOp::Kernel;
  Order order = Order::Stream;
  View view = View::Same;  // the view the reader uses
  Memory memory = Memory::Device;  // optional: the memory behind the views

  static constexpr std::string_view kName = "kernel_pair";
  static constexpr std::array<Lives, 4> kMutants{
      {{Mutant::NoStreamOrder}, {Mutant::NoEventWait}, {Mutant::NoHostSync}, {Mutant::NoGraphEdge}}};
  static constexpr auto kAxes = std::make_tuple(axis("writer", &KernelPair::writer), axis("reader", &KernelPair::reader),
                                                axis("order", &KernelPair::order), axis("view", &KernelPair::view),
                                                optional_axis(axis("memory", &KernelPair::memory), Memory::Device));
  static constexpr std::array<Outcome, kBins> kOutcomes{{
      {New, "new", false, "the reader saw the writer's value"},
      {Old, "old", true, "the reader saw the value from before the writer"},
      {Other, "other", true, "the reader saw neither value"},
  }};
};
static_assert(outcomes_match_bins<KernelPair>());

// The load the reading operation makes: a copy engine reads like a weak load.
constexpr Load load_of(ReaderOp reader) { return reader == ReaderOp::KernelNc ? Load::NonCoherent : Load::Weak; }

// writing operation: st [A] = 1 (a kernel, or a copy engine's weak stores)
// reading operation:  r = ld [view]  -- old: r != 1. Stream order, an event, host synchronisation or a
// graph edge puts an operation boundary between them; nothing does for order none.
inline litmus::Shaped structure_of(const KernelPair& c) {
  if (load_of(c.reader) == Load::NonCoherent) return {std::nullopt, {}, kNcOutsideTheModel};
  return {litmus::operation_pair("kernel_pair", c.view != View::Same, c.order != Order::None, 0, 1), {"new"}, {}};
}

// The order, removed from the case itself: the reader on the other stream, without its event wait,
// without the host's synchronisation, or a graph without the edge (the writer held until the reader
// starts, so nothing else keeps them apart: patterns/kernel_pair/runner.cpp).
constexpr std::optional<Control<KernelPair>> control_of(const KernelPair& c) {
  switch (c.order) {
    case Order::Stream: return without(c, Mutant::NoStreamOrder, "stream order");
    case Order::Event: return without(c, Mutant::NoEventWait, "the event");
    case Order::Host: return without(c, Mutant::NoHostSync, "host synchronisation");
    case Order::Graph: return without(c, Mutant::NoGraphEdge, "the graph edge");
    case Order::None: break;
  }
  return std::nullopt;
}

}  // namespace vmmcheck::patterns

namespace vmmcheck::run {
void run_pattern(GpuSession& s, const patterns::KernelPair& def, const model::Case& c, CaseResult& r);
std::string why_not_here(const patterns::KernelPair& def, const device::ProbeReport& machine, int device);
}  // namespace vmmcheck::run
