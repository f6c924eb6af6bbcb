#include "run/kit/in_kernel.hpp"

#include <algorithm>
#include <numeric>

namespace vmmcheck::run {

kernels::Placement placement_for(std::uint64_t seed, std::uint32_t n) {
  kernels::Placement p;
  std::uint64_t stride = (seed % n) | 1u;
  while (std::gcd<std::uint64_t, std::uint64_t>(stride, n) != 1) stride += 2;
  p.memory_stride = static_cast<std::uint32_t>(stride);
  p.memory_offset = static_cast<std::uint32_t>((seed >> 32) % n);
  p.lane_stride = static_cast<std::uint32_t>((seed >> 16) | 1u);  // odd: co-prime with a power-of-two block
  p.seed = seed;
  return p;
}

std::uint32_t rounds_for(const Budget& b, std::uint32_t instances_per_round) {
  const std::uint64_t per_launch = (b.instances + b.iterations - 1) / b.iterations;
  return static_cast<std::uint32_t>(
      std::max<std::uint64_t>(1, (per_launch + instances_per_round - 1) / instances_per_round));
}

}  // namespace vmmcheck::run
