#pragma once
// Host-side interface of the multicast kernels (patterns/multicast/definition.hpp). sm_90 and newer: on older
// architectures the kernels are empty (no device below sm_90 supports multicast objects).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "patterns/multicast/definition.hpp"

namespace vmmcheck::kernels {

struct MulticastArgs {
  std::uint32_t* multicast = nullptr;  // the multicast mapping of the words
  std::uint32_t* unicast = nullptr;    // this device's unicast mapping of the same words
  std::uint64_t count = 0;
  std::uint32_t value = 0;             // what the first access writes
  std::uint32_t expect = 0;            // what the second access must see (ld_reduce over N devices: N * value)
  patterns::MulticastOp op = patterns::MulticastOp::Store;
  bool fence = false;                  // fence.proxy.alias between the two accesses
  unsigned long long* histogram = nullptr;  // patterns::Multicast::kBins counters
};

// Both accesses in one kernel: per word, the first access, (fence.proxy.alias), the second.
void launch_multicast_pair(const MulticastArgs& args, cudaStream_t stream);
// The first access alone, and the second alone (two kernels, for an event between them).
void launch_multicast_first(const MulticastArgs& args, cudaStream_t stream);
void launch_multicast_second(const MulticastArgs& args, cudaStream_t stream);

}  // namespace vmmcheck::kernels
