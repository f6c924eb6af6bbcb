#include "launch_check.hpp"

#include "common/error.hpp"

namespace vmmcheck::kernels {

LaunchShape resident_shape(const void* kernel, int threads_per_block) {
  int device = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads_per_block, 0));
  return LaunchShape{per_sm * sms, threads_per_block};
}

void check_launch(const char* kernel_name) { check_runtime_call(cudaGetLastError(), kernel_name); }

void check_runtime_call(cudaError_t err, const char* what) {
  if (err != cudaSuccess) ::vmmcheck::check_runtime(err, what, __FILE__, __LINE__);
}

}  // namespace vmmcheck::kernels
