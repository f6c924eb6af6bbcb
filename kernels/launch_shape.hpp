#pragma once
// A launch's grid: blocks and threads per block. Apart from the launch toolkit (launch.hpp) because it is
// plain C++ -- no CUDA header -- and the stress knobs (kernels/in_kernel.hpp, run/records/stress_params.hpp)
// that the CPU-only build (-DVMMCHECK_GPU=OFF) compiles use it.
#include <cstdint>

namespace vmmcheck::kernels {

struct LaunchShape {
  int blocks = 0;
  int threads = 0;
  std::uint32_t instances() const { return static_cast<std::uint32_t>(blocks) * static_cast<std::uint32_t>(threads); }
};

}  // namespace vmmcheck::kernels
