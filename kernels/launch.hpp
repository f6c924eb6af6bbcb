#pragma once
// The kernel-launch toolkit, host side: the device's SM count, grid sizing, and the launch check. Every
// launch function in kernels/ uses these (through launch() in device/launch.cuh), so a failed launch
// names the kernel and the file:line that launched it.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/launch_shape.hpp"

namespace vmmcheck::kernels {

// Where a launch is made, for its error message: VMMCHECK_HERE.
struct Where {
  const char* file;
  int line;
};
#define VMMCHECK_HERE (::vmmcheck::kernels::Where{__FILE__, __LINE__})

// Threads per block of the grid-stride kernels (fill, copy, count).
constexpr int kStrideThreads = 256;

// The current device's SM count (queried once per device).
int sm_count();

// Blocks for a grid-stride loop over `items` with `threads` per block: enough to cover them, at most
// eight per SM (the loop does the rest).
int grid_for(std::uint64_t items, int threads = kStrideThreads);

// Every block resident at once (spins between CTAs need every partner running): blocks per SM from the
// occupancy calculator times the SM count.
LaunchShape resident_shape(const void* kernel, int threads_per_block);

// Throws vmmcheck::CudaError naming `kernel` and where it was launched if the last launch failed.
void check_launch(const char* kernel, Where where);

// Throws vmmcheck::CudaError naming `what` and `where` if `err` is not cudaSuccess.
void check_call(cudaError_t err, const char* what, Where where);

}  // namespace vmmcheck::kernels
