#include "device/machine.hpp"

#include <cuda_runtime_api.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace vmmcheck::device {

std::string format_version(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

std::string driver_release_from(const std::string& text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." (open modules say "Open Kernel Module")
  static const std::regex release(R"(Kernel Module[^\n]*?\s(\d+\.\d+(\.\d+)?)\s)");
  std::smatch m;
  return std::regex_search(text, m, release) ? m[1].str() : "";
}

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
