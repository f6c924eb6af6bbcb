#include "device/probe.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "device/machine.hpp"
#include "vmm/fabric.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::device {
namespace {

bool attribute(CUdevice dev, CUdevice_attribute attr) {
  int value = 0;
  // An attribute the driver does not know reads as unsupported rather than failing the probe.
  if (driver().cuDeviceGetAttribute(&value, attr, dev) != CUDA_SUCCESS) return false;
  return value != 0;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string mib(std::size_t bytes) {
  std::ostringstream s;
  if (bytes % (1u << 20) == 0) s << (bytes >> 20) << " MiB";
  else s << bytes << " B";
  return s.str();
}

}  // namespace

ImexState read_imex_state(const std::string& proc_devices_text, const std::string& channel_folder) {
  ImexState s;
  std::istringstream in(proc_devices_text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    int major = -1;
    std::string name;
    if (fields >> major >> name && name == "nvidia-caps-imex-channels") {
      s.proc_devices_entry = true;
      s.major = major;
    }
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(channel_folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("channel", 0) != 0) continue;
    s.channels.push_back(name);
    if (::access(entry.path().c_str(), R_OK | W_OK) == 0) s.accessible_channels.push_back(name);
  }
  std::sort(s.channels.begin(), s.channels.end());
  std::sort(s.accessible_channels.begin(), s.accessible_channels.end());
  return s;
}

ProbeReport probe(bool allow_multicast_flag) {
  ProbeReport r;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();
    throw NotSupportedError(std::string("no CUDA GPU here (") + (err != cudaSuccess ? cudaGetErrorName(err) : "0 devices") + ")");
  }
  CUDA_CHECK(cudaRuntimeGetVersion(&r.runtime_version));
  const DriverApi& api = driver();
  VMM_CHECK(api.cuDriverGetVersion(&r.driver_version));

  std::ostringstream release;
  release << std::ifstream("/proc/driver/nvidia/version").rdbuf();
  r.driver_release = driver_release_from(release.str());
  std::ostringstream proc;
  proc << std::ifstream("/proc/devices").rdbuf();
  r.imex = read_imex_state(proc.str(), "/dev/nvidia-caps-imex-channels");

  for (int i = 0; i < count; ++i) {
    CUDA_CHECK(cudaSetDevice(i));
    CUDA_CHECK(cudaFree(nullptr));  // a current context for the granularity query
    CUdevice dev = 0;
    VMM_CHECK(api.cuDeviceGet(&dev, i));
    DeviceCaps d;
    d.index = i;
    char name[256] = {};
    VMM_CHECK(api.cuDeviceGetName(name, sizeof name, dev));
    d.name = name;
    VMM_CHECK(api.cuDeviceGetAttribute(&d.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    VMM_CHECK(api.cuDeviceGetAttribute(&d.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    VMM_CHECK(api.cuDeviceTotalMem(&d.total_memory, dev));
    d.unified_addressing = attribute(dev, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
    d.vmm = attribute(dev, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED);
    d.posix_fd = attribute(dev, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED);
    d.fabric = attribute(dev, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED);
    d.multicast = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED);
    d.compression = attribute(dev, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED);
    d.host_numa_vmm = attribute(dev, CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED);
    if (api.cuDeviceGetAttribute(&d.host_numa_id, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, dev) != CUDA_SUCCESS) d.host_numa_id = -1;
    if (d.vmm) {
      d.granularity_minimum = vmm::allocation_granularity(i, false);
      d.granularity_recommended = vmm::allocation_granularity(i, true);
    }
    d.multicast_gate = multicast_gate_from_environment(d.multicast, allow_multicast_flag);
    if (d.vmm) {
      const vmm::FabricProbe f = vmm::probe_fabric(i);
      d.fabric_trial = f.trial;
      d.fabric_reason = f.reason;
      d.imex_channel_count = f.imex_channel_count;
    }
    r.devices.push_back(std::move(d));
  }
  r.peer_access.assign(count, std::vector<bool>(count, false));
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      int can = a == b ? 1 : 0;
      if (a != b) VMM_CHECK(api.cuDeviceCanAccessPeer(&can, a, b));
      r.peer_access[a][b] = can != 0;
    }
  }
  return r;
}

nlohmann::json to_json(const ProbeReport& r) {
  using nlohmann::json;
  json devices = json::array();
  for (const DeviceCaps& d : r.devices) {
    devices.push_back({{"index", d.index},
                       {"name", d.name},
                       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                       {"total_memory", d.total_memory},
                       {"unified_addressing", d.unified_addressing},
                       {"vmm", d.vmm},
                       {"posix_fd", d.posix_fd},
                       {"fabric", d.fabric},
                       {"multicast", d.multicast},
                       {"compression", d.compression},
                       {"host_numa_vmm", d.host_numa_vmm},
                       {"host_numa_id", d.host_numa_id},
                       {"granularity_minimum", d.granularity_minimum},
                       {"granularity_recommended", d.granularity_recommended},
                       {"multicast_gate", {{"allowed", d.multicast_gate.allowed}, {"reason", d.multicast_gate.reason}}},
                       {"fabric_trial", {{"status", d.fabric_trial}, {"reason", d.fabric_reason},
                                         {"imex_channel_count", d.imex_channel_count}}}});
  }
  // "schema" names the document's kind (run/records/output_file.hpp); driver_release is what results files
  // record, so the report driver's rerun can tell whether a file is of this machine.
  return json{{"schema", "vmmcheck-probe/1"},
              {"driver_version", r.driver_version},
              {"driver_release", r.driver_release},
              {"runtime_version", r.runtime_version},
              {"imex", {{"proc_devices_entry", r.imex.proc_devices_entry},
                        {"major", r.imex.major},
                        {"channels", r.imex.channels},
                        {"accessible_channels", r.imex.accessible_channels}}},
              {"devices", devices},
              {"peer_access", r.peer_access},
              {"fd_transports", json(r.fd_transports)}};
}

std::string to_text(const ProbeReport& r) {
  std::ostringstream o;
  auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
  o << "driver " << version(r.driver_version) << " (CUDA driver API " << r.driver_version << "), runtime "
    << version(r.runtime_version) << "\n";
  o << "IMEX channels: /proc/devices entry " << (r.imex.proc_devices_entry ? "present (major " + std::to_string(r.imex.major) + ")" : "absent")
    << "; " << r.imex.channels.size() << " channel file(s), " << r.imex.accessible_channels.size() << " accessible\n";
  for (const DeviceCaps& d : r.devices) {
    o << "device " << d.index << ": " << d.name << ", compute capability " << d.cc_major << "." << d.cc_minor << ", "
      << (d.total_memory >> 20) << " MiB\n"
      << "  VMM " << yes_no(d.vmm) << ", UVA " << yes_no(d.unified_addressing) << ", POSIX FD " << yes_no(d.posix_fd)
      << ", fabric " << yes_no(d.fabric) << ", multicast " << yes_no(d.multicast) << ", compression "
      << yes_no(d.compression) << ", host NUMA VMM " << yes_no(d.host_numa_vmm) << "\n"
      << "  granularity: minimum " << mib(d.granularity_minimum) << ", recommended " << mib(d.granularity_recommended) << "\n"
      << "  multicast gate: " << (d.multicast_gate.allowed ? "allowed" : "refused") << " (" << d.multicast_gate.reason << ")\n";
    if (!d.fabric_trial.empty())
      o << "  fabric trial: " << d.fabric_trial << (d.fabric_reason.empty() ? "" : " -- " + d.fabric_reason) << "\n";
  }
  o << "peer access (row can access column):\n     ";
  for (std::size_t b = 0; b < r.peer_access.size(); ++b) o << " " << b;
  o << "\n";
  for (std::size_t a = 0; a < r.peer_access.size(); ++a) {
    o << "  " << a << ": ";
    for (std::size_t b = 0; b < r.peer_access.size(); ++b) o << " " << (a == b ? "-" : r.peer_access[a][b] ? "Y" : "n");
    o << "\n";
  }
  for (const auto& [transport, how] : r.fd_transports) o << "descriptor transport " << transport << ": " << how << "\n";
  return o.str();
}

}  // namespace vmmcheck::device
