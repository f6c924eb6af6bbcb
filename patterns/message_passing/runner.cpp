// Runner of alias.memory.mp (patterns/message_passing/definition.hpp): one instance per resident thread per round, the
// thread writing one instance and reading another CTA's.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "patterns/message_passing/kernels.hpp"
#include "kernels/operations.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/kit/mutants.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::MessagePassing& def, const model::Case& c, CaseResult& r) {
  using patterns::FencePlacement;
  const Budget& b = s.budget();
  kernels::MessagePassingArgs a;
  a.scope = def.scope;
  a.flag_sync = mutated(Mutant::RelaxedFlag) ? patterns::FlagSync::Relaxed : def.flag_sync;
  const bool fences = !mutated(Mutant::NoProxyFence);
  a.writer_fence = fences && (def.fence == FencePlacement::Writer || def.fence == FencePlacement::Both);
  a.reader_fence = fences && (def.fence == FencePlacement::Reader || def.fence == FencePlacement::Both);
  const kernels::LaunchShape shape = kernels::message_passing_shape(a, static_cast<int>(b.stress.threads_per_block));
  const std::uint32_t n = shape.instances();
  // Data words first, flag words after them (in another part of the allocation).
  const std::uint64_t flag_offset = (n + 1023u) / 1024u * 1024u;
  std::uint32_t* const view_a = s.words(patterns::View::Same);
  a.data_write = view_a;
  a.flag_write = view_a + flag_offset;
  a.data_read = s.words(def.data);
  a.flag_read = s.words(def.flag) + flag_offset;
  a.spin_timeout_ns = static_cast<std::uint64_t>(b.stress.spin_timeout_us) * 1000;
  a.histogram = s.histogram();
  a.sink = s.sink();
  kernels::launch_fill(view_a, flag_offset + n, 0, s.work());
  run_litmus(s, c, r, a, shape, [&](const kernels::MessagePassingArgs& args) {
    kernels::launch_message_passing(args, shape, s.work());
  });
}

// The memory its views are made of must be one this device offers.
std::string why_not_here(const patterns::MessagePassing& def, const device::ProbeReport& machine, int device) {
  return memory_why_not(def.memory, machine.devices.at(static_cast<std::size_t>(device)));
}

}  // namespace vmmcheck::run
