#pragma once
// The bounded device-side wait: a kernel that waits for the host or a partner waits through this (or a
// loop of its own with the same globaltimer bound), so a lost signal costs a timeout bin, never a hung
// GPU. The one exception is planted: the isolation self-test's spin that never ends (tests/planted/).
#include <cstdint>

#include "memory_ops.cuh"

namespace vmmcheck::kernels::device {

// Polls `ready()` until it returns true (then returns true) or `timeout_ns` of globaltimer time have
// passed (then false). The clock is read every 64 polls: it is slower to read than a load. With
// `backoff_ns`, the thread sleeps that long between polls (for long waits that share the SM).
template <typename Ready>
__device__ __forceinline__ bool wait_until(Ready ready, std::uint64_t timeout_ns, unsigned backoff_ns = 0) {
  const std::uint64_t start = now_ns();
  for (std::uint32_t poll = 0;; ++poll) {
    if (ready()) return true;
    if ((poll & 63u) == 63u && now_ns() - start > timeout_ns) return false;
    if (backoff_ns) __nanosleep(backoff_ns);
  }
}

}  // namespace vmmcheck::kernels::device
