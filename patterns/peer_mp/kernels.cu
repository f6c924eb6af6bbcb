// peer.mp: message passing from GPU 0 to GPU 1 through aliases of GPU 0's memory. The two grids run at
// the same time on two devices; each instance is one writer thread and one reader thread with the same
// index, kept in lockstep by an acknowledgement, so every round's data load races the next round's
// store only when the rules let it.
#include "kernels/device/histogram.cuh"
#include "kernels/device/launch.cuh"
#include "kernels/device/memory_ops.cuh"
#include "kernels/device/wait.cuh"
#include "patterns/peer_mp/kernels.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;
using patterns::FlagSync;
using patterns::Scope;
using Bin = patterns::PeerMp::Bin;

__device__ __forceinline__ std::uint32_t instance() { return blockIdx.x * blockDim.x + threadIdx.x; }

template <FlagSync F>
__global__ void peer_mp_writer(PeerMpArgs a) {
  const std::uint32_t t = instance();
  if (t >= a.instances) return;
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    if (r > 0 && !wait_until([&] { return observe<Scope::Sys, FlagSync::Relaxed>(a.ack + t) >= r; }, a.spin_timeout_ns))
      return;  // the reader gave up: its timeouts are counted there
    const std::uint32_t v = a.value_base + r + 1;
    store_weak(a.data_write + t, v);
    publish<Scope::Sys, F>(a.flag + t, v);
  }
}

template <FlagSync F, bool Fence>
__global__ void peer_mp_reader(PeerMpArgs a) {
  const std::uint32_t t = instance();
  Counters c;
  std::uint32_t keep = 0;
  if (t < a.instances) {
    for (std::uint32_t r = 0; r < a.rounds; ++r) {
      const std::uint32_t v = a.value_base + r + 1;
      keep ^= load<Load::Weak>(a.data_read + t);  // warms the line: an unordered read may hit it
      if (!wait_until([&] { return observe<Scope::Sys, F>(a.flag + t) >= v; }, a.spin_timeout_ns)) {
        c.bin[Bin::Timeout] += a.rounds - r;  // the writer stops at the missing ack
        break;
      }
      if constexpr (Fence) proxy_alias_fence();
      const std::uint32_t d = load<Load::Weak>(a.data_read + t);
      ++c.bin[d >= v ? Bin::New : Bin::Stale];
      publish<Scope::Sys, FlagSync::Relaxed>(a.ack + t, r + 1);
    }
  }
  if (keep == 0xFFFFFFFFu && a.sink) *a.sink = keep;
  flush(c, a.histogram);
}

int blocks(const PeerMpArgs& a) { return static_cast<int>((a.instances + kPeerMpThreads - 1) / kPeerMpThreads); }

}  // namespace

void launch_peer_mp_writer(const PeerMpArgs& a, cudaStream_t stream) {
  auto* k = a.flag_sync == FlagSync::ReleaseAcquire ? &peer_mp_writer<FlagSync::ReleaseAcquire> : &peer_mp_writer<FlagSync::Relaxed>;
  launch(VMMCHECK_HERE, "peer_mp_writer", k, blocks(a), kPeerMpThreads, stream, a);
}

void launch_peer_mp_reader(const PeerMpArgs& a, cudaStream_t stream) {
  using K = void (*)(PeerMpArgs);
  const bool acq = a.flag_sync == FlagSync::ReleaseAcquire;
  const K k = acq ? (a.reader_fence ? K(&peer_mp_reader<FlagSync::ReleaseAcquire, true>) : K(&peer_mp_reader<FlagSync::ReleaseAcquire, false>))
                  : (a.reader_fence ? K(&peer_mp_reader<FlagSync::Relaxed, true>) : K(&peer_mp_reader<FlagSync::Relaxed, false>));
  launch(VMMCHECK_HERE, "peer_mp_reader", k, blocks(a), kPeerMpThreads, stream, a);
}

}  // namespace vmmcheck::kernels
