#pragma once
// The capability probe: what this driver and these GPUs support, read through attributes only. It never
// creates a multicast object.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "device/multicast_gate.hpp"

namespace vmmcheck::device {

struct ImexState {
  bool proc_devices_entry = false;  // /proc/devices lists nvidia-caps-imex-channels
  int major = -1;
  std::vector<std::string> channels;             // /dev/nvidia-caps-imex-channels/channel*
  std::vector<std::string> accessible_channels;  // those this process may open read-write
};

struct DeviceCaps {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  std::size_t total_memory = 0;
  bool unified_addressing = false;
  bool vmm = false;
  bool posix_fd = false;
  bool fabric = false;
  bool multicast = false;
  bool compression = false;
  bool host_numa_vmm = false;
  int host_numa_id = -1;  // CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: the node host NUMA memory comes from (-1: none)
  std::size_t granularity_minimum = 0;      // 0 when VMM is unsupported
  std::size_t granularity_recommended = 0;
  GateDecision multicast_gate;
  // The fabric trial (vmm/fabric.hpp): one FABRIC allocation made and exported, or why not.
  std::string fabric_trial;    // "CUDA_SUCCESS", the refusing status, or "not tried"
  std::string fabric_reason;   // empty when usable
  int imex_channel_count = -1; // ImexChannelCount from /proc/driver/nvidia/params; -1 when absent
};

struct ProbeReport {
  int driver_version = 0;
  std::string driver_release;  // e.g. 580.159.04 (machine.hpp); empty if unknown
  int runtime_version = 0;
  ImexState imex;
  std::vector<DeviceCaps> devices;
  std::vector<std::vector<bool>> peer_access;  // [from][to]: can `from` access `to`'s memory
  // How an exported descriptor can reach another process here: transport -> "works" or why not. Filled
  // by the caller (run/kit/fd_transports.hpp starts a process for it).
  std::vector<std::pair<std::string, std::string>> fd_transports;
};

// Reads /proc/devices text and the channel folder; separate from the GPU so it is testable on the CPU.
ImexState read_imex_state(const std::string& proc_devices_text, const std::string& channel_folder);

// Throws NotSupportedError when there is no driver or no GPU.
ProbeReport probe(bool allow_multicast_flag);

nlohmann::json to_json(const ProbeReport& report);
std::string to_text(const ProbeReport& report);

}  // namespace vmmcheck::device
