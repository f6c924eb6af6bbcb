#include "common/error.hpp"

// No CUDA header here: the CPU-only build (-DVMMCHECK_GPU=OFF) has these errors. The checks that ask CUDA
// for an error's name, check_driver and check_runtime, are in common/cuda_check.cpp.

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

}  // namespace vmmcheck
