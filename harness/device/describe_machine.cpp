// describe_machine() (device/machine.hpp): the driver, the runtime and the devices, from the CUDA runtime;
// apart from machine.cpp, whose text helpers the CPU-only build (-DVMMCHECK_GPU=OFF) has without CUDA.
#include "device/machine.hpp"

#include <cuda_runtime_api.h>

#include <fstream>
#include <sstream>

namespace vmmcheck::device {

Machine describe_machine() {
  Machine m;
  cudaDriverGetVersion(&m.driver_version);
  std::ostringstream proc;
  proc << std::ifstream("/proc/driver/nvidia/version").rdbuf();
  m.driver_release = driver_release_from(proc.str());
  cudaRuntimeGetVersion(&m.runtime_version);
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();
    m.no_gpu_reason = std::string("no CUDA GPU here: ") + (err != cudaSuccess ? cudaGetErrorName(err) : "0 devices");
    return m;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    m.devices.push_back({i, p.name, std::to_string(p.major) + "." + std::to_string(p.minor)});
  }
  return m;
}

}  // namespace vmmcheck::device
