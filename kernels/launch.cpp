#include "kernels/launch.hpp"

#include <mutex>
#include <vector>

#include "common/error.hpp"

namespace vmmcheck::kernels {

int sm_count() {
  static std::mutex mutex;
  static std::vector<int> by_device;
  int device = 0;
  check_call(cudaGetDevice(&device), "cudaGetDevice", VMMCHECK_HERE);
  const std::lock_guard<std::mutex> lock(mutex);
  if (by_device.size() <= static_cast<std::size_t>(device)) by_device.resize(device + 1, 0);
  if (by_device[device] == 0) {
    int sms = 0;
    check_call(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute", VMMCHECK_HERE);
    by_device[device] = sms > 0 ? sms : 1;
  }
  return by_device[device];
}

int grid_for(std::uint64_t items, int threads) {
  const std::uint64_t wanted = (items + threads - 1) / threads;
  const std::uint64_t cap = static_cast<std::uint64_t>(sm_count()) * 8;
  return static_cast<int>(wanted == 0 ? 1 : wanted < cap ? wanted : cap);
}

LaunchShape resident_shape(const void* kernel, int threads_per_block) {
  int per_sm = 0;
  check_call(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads_per_block, 0),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor", VMMCHECK_HERE);
  return LaunchShape{per_sm * sm_count(), threads_per_block};
}

void check_launch(const char* kernel, Where where) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) check_runtime(err, (std::string("launch of ") + kernel).c_str(), where.file, where.line);
}

void check_call(cudaError_t err, const char* what, Where where) {
  if (err != cudaSuccess) check_runtime(err, what, where.file, where.line);
}

}  // namespace vmmcheck::kernels
