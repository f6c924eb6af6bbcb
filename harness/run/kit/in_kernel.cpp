#include "run/kit/in_kernel.hpp"

#include <algorithm>
#include <numeric>

namespace vmmcheck::run {

namespace {

// An odd start near `x`, stepped by two until co-prime with n (n <= 1: 1).
std::uint32_t coprime_near(std::uint64_t x, std::uint32_t n) {
  if (n <= 1) return 1;
  std::uint64_t stride = (x % n) | 1u;
  while (std::gcd<std::uint64_t, std::uint64_t>(stride, n) != 1) stride += 2;
  return static_cast<std::uint32_t>(stride % n == 0 ? 1 : stride);
}

}  // namespace

kernels::Placement placement_for(std::uint64_t seed, std::uint32_t n, std::uint32_t ctas, std::uint32_t lanes) {
  kernels::Placement p;
  p.memory_stride = coprime_near(seed, n);
  p.memory_offset = static_cast<std::uint32_t>((seed >> 32) % n);
  p.lane_stride = static_cast<std::uint32_t>((seed >> 16) | 1u);  // odd: co-prime with a power-of-two block
  // A block of another size (--stress-params threads_per_block 96, say) needs a stride co-prime with it,
  // or the lane permutation is no permutation: stepped by two, it stays odd (and unchanged for 2^k).
  if (lanes > 1)
    while (std::gcd<std::uint64_t, std::uint64_t>(p.lane_stride, lanes) != 1) p.lane_stride += 2;
  const std::uint64_t mixed = seed * 0x9e3779b97f4a7c15ull;
  p.cta_stride = coprime_near(mixed >> 20, ctas);
  p.cta_offset = ctas > 1 ? static_cast<std::uint32_t>((mixed >> 44) % ctas) : 0;
  return p;
}

std::uint32_t rounds_for(const Budget& b, std::uint32_t instances_per_round, std::uint64_t launches) {
  const std::uint64_t per_launch = (b.instances + launches - 1) / launches;
  return static_cast<std::uint32_t>(
      std::max<std::uint64_t>(1, (per_launch + instances_per_round - 1) / instances_per_round));
}

}  // namespace vmmcheck::run
