// Runner of peer.mp (patterns/peer_mp/definition.hpp): message passing from GPU 0 to GPU 1 at sys scope,
// two grids at once, through view A or GPU 1's alias.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/launch.hpp"
#include "run/kit/checked_words.hpp"
#include "patterns/peer_mp/kernels.hpp"
#include "run/kit/devices.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/session.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {
using patterns::View;

void run_pattern(GpuSession& s, const patterns::PeerMp& def, const model::Case& c, CaseResult& r) {
  const int d0 = s.device(), d1 = peer_of(d0);
  const Budget& b = s.budget();
  DeviceWork peer(d1);
  const cudaStream_t s1 = peer.stream;
  Event start, stop;  // on GPU 1, timing the reader
  {
    DeviceScope on(d1);
    start = Event::create(true);
    stop = Event::create(true);
  }

  kernels::PeerMpArgs a;
  a.instances = static_cast<std::uint32_t>(kernels::sm_count()) * 2 * kernels::kPeerMpThreads;
  const std::uint64_t stride = (a.instances + 1023u) / 1024u * 1024u;  // data, flags, acks: apart
  const vmm::AliasSet set(d0, 3 * stride * 4, {vmm::ViewSpec{0, std::vector<int>{d0, d1}}, vmm::ViewSpec{0, std::vector<int>{d1}}});
  std::uint32_t* const base = words_at(set.view(0).address);
  a.data_write = base;
  a.flag = base + stride;
  a.ack = base + 2 * stride;
  a.data_read = def.data == View::Same ? base : words_at(set.view(1).address);
  a.reader_fence = def.fence == patterns::Fence::ProxyAlias && !mutated(Mutant::NoProxyFence);
  a.flag_sync = mutated(Mutant::RelaxedFlag) ? patterns::FlagSync::Relaxed : def.flag_sync;
  a.rounds = rounds_for(b, a.instances);
  a.spin_timeout_ns = static_cast<std::uint64_t>(b.stress.spin_timeout_us) * 1000;
  a.histogram = peer.counts->get();
  a.sink = peer.sink.get();

  // The reader goes first and waits; the writer on GPU 0 starts while it does. The reader is timed on
  // GPU 1, and counts there.
  const LoopPlan plan{a.instances, b.iterations, static_cast<std::uint64_t>(a.instances) * a.rounds};
  launch_loop(
      s, c, r, plan,
      [&](std::uint64_t it, const kernels::Placement&) {
        a.value_base = static_cast<std::uint32_t>(it) * a.rounds;
        fill(set.view(0).address, 3 * stride, 0, s.work());
      },
      [&]() -> float {
        {
          DeviceScope on(d1);
          CUDA_CHECK(cudaEventRecord(start, s1));
          kernels::launch_peer_mp_reader(a, s1);
          CUDA_CHECK(cudaEventRecord(stop, s1));
        }
        kernels::launch_peer_mp_writer(a, s.work());
        CUDA_CHECK(cudaStreamSynchronize(s.work()));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        return ms;
      },
      [](std::uint64_t) {});
  peer.counts->add_into(r.histogram, s1);
}

// A second GPU that reaches this one and that this one reaches.
std::string why_not_here(const patterns::PeerMp&, const device::ProbeReport& machine, int device) {
  return two_gpus_why_not(machine, device);
}

}  // namespace vmmcheck::run
