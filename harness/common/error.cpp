#include "common/error.hpp"

#include <cuda_runtime_api.h>

#include "common/driver.hpp"

namespace vmmcheck {

CudaError::CudaError(int code, std::string error_name, std::string expression, const char* file,
                     int line)
    : std::runtime_error(error_name + " (" + std::to_string(code) + ") from `" + expression + "` at " +
                         file + ":" + std::to_string(line)),
      code_(code),
      error_name_(std::move(error_name)),
      expression_(std::move(expression)) {}

void throw_cuda_error(int code, const char* error_name, const char* expression, const char* file,
                      int line) {
  throw CudaError(code, error_name ? error_name : "unknown error", expression, file, line);
}

void check_driver(int result, const char* expression, const char* file, int line) {
  if (result == 0) return;
  throw_cuda_error(result, driver_error_name(result), expression, file, line);
}

void check_runtime(int result, const char* expression, const char* file, int line) {
  if (result == 0) return;
  throw_cuda_error(result, cudaGetErrorName(static_cast<cudaError_t>(result)), expression, file, line);
}

}  // namespace vmmcheck
