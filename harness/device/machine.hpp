#pragma once
// What a run says about the machine it ran on: driver, runtime and devices. Read once per run for the
// header and the JSON context; no VMM call, no multicast object (the probe, probe.hpp, goes further).
#include <string>
#include <vector>

namespace vmmcheck::device {

struct DeviceSummary {
  int index = 0;
  std::string name;
  std::string compute_capability;
};

struct Machine {
  int driver_version = 0;      // e.g. 13000: the CUDA version the driver supports (0: no driver)
  std::string driver_release;  // e.g. 580.159.04, from /proc/driver/nvidia/version (empty if absent)
  int runtime_version = 0;
  std::vector<DeviceSummary> devices;  // empty when there is no GPU
  std::string no_gpu_reason;           // why `devices` is empty
};

Machine describe_machine();

// The kernel-module release ("580.159.04") from /proc/driver/nvidia/version text; empty if not found.
std::string driver_release_from(const std::string& proc_version_text);
// 13000 -> "13.0"
std::string format_version(int cuda_version);

}  // namespace vmmcheck::device
