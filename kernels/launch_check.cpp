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

void check_launch(const char* kernel_name) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) ::vmmcheck::check_runtime(err, kernel_name, __FILE__, __LINE__);
}

}  // namespace vmmcheck::kernels
