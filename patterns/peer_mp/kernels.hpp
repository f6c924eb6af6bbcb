#pragma once
// Host-side interface of the cross-GPU message-passing kernels (patterns/peer_mp/definition.hpp): the writer
// runs on GPU 0, the reader on GPU 1, at the same time, in lockstep through an acknowledgement word.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "patterns/peer_mp/definition.hpp"

namespace vmmcheck::kernels {

struct PeerMpArgs {
  std::uint32_t* data_write = nullptr;  // view A (GPU 0)
  std::uint32_t* flag = nullptr;        // view A, both GPUs
  std::uint32_t* ack = nullptr;         // view A, both GPUs: the reader's "round r done"
  std::uint32_t* data_read = nullptr;   // the data axis' view (GPU 1)
  bool reader_fence = false;
  patterns::FlagSync flag_sync = patterns::FlagSync::ReleaseAcquire;
  std::uint32_t instances = 0;          // threads of each grid; instance t is thread t of both
  std::uint32_t rounds = 1;
  std::uint32_t value_base = 0;
  std::uint64_t spin_timeout_ns = 20'000'000;
  unsigned long long* histogram = nullptr;  // PeerMp::kBins counters, on GPU 1
  std::uint32_t* sink = nullptr;            // on GPU 1: keeps the warming loads alive
};

// Writer, round r (v = value_base + r + 1): wait for ack >= r (relaxed.sys, bounded), st data = v,
// st.release.sys flag = v (relaxed with FlagSync::Relaxed).
void launch_peer_mp_writer(const PeerMpArgs& args, cudaStream_t stream);
// Reader: warm the data line, spin ld.acquire.sys flag >= v, (fence.proxy.alias), ld data, count,
// st.relaxed.sys ack = r + 1.
void launch_peer_mp_reader(const PeerMpArgs& args, cudaStream_t stream);
// Blocks x threads of both grids for `instances` threads.
constexpr int kPeerMpThreads = 256;

}  // namespace vmmcheck::kernels
