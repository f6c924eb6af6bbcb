#pragma once
// Shared by the kernel launch functions: the largest grid whose blocks are all resident at once (spins
// between CTAs need every partner running), and the launch-error check.
#include <cuda_runtime_api.h>

#include "litmus.hpp"

namespace vmmcheck::kernels {

// Every block resident at once: blocks-per-SM from the occupancy calculator times the SM count.
LaunchShape resident_shape(const void* kernel, int threads_per_block);

// Throws vmmcheck::CudaError if the last launch failed.
void check_launch(const char* kernel_name);

// Throws vmmcheck::CudaError naming `what` if `err` is not cudaSuccess.
void check_runtime_call(cudaError_t err, const char* what);

}  // namespace vmmcheck::kernels
