// The checks of error.hpp that ask CUDA for an error's name -- the driver through its entry-point table,
// the runtime directly -- apart from error.cpp, so the CPU-only build (-DVMMCHECK_GPU=OFF, no CUDA
// toolkit) has the errors without them.
#include "common/error.hpp"

#include <cuda_runtime_api.h>

#include "common/driver.hpp"

namespace vmmcheck {

void check_driver(int result, const char* expression, const char* file, int line) {
  if (result == 0) return;
  throw_cuda_error(result, driver_error_name(result), expression, file, line);
}

void check_runtime(int result, const char* expression, const char* file, int line) {
  if (result == 0) return;
  throw_cuda_error(result, cudaGetErrorName(static_cast<cudaError_t>(result)), expression, file, line);
}

}  // namespace vmmcheck
