#include "run/kit/support.hpp"

#include <type_traits>
#include <variant>

#include "patterns/registry.hpp"
#include "run/kit/fd_transports.hpp"

namespace vmmcheck::run {

device::ProbeReport describe_for_support() {
  // The opt-in to multicast is read from the environment, as the gate in the runners reads it.
  device::ProbeReport machine = device::probe(false);
  machine.fd_transports = probe_fd_transports();
  return machine;
}

std::string why_not_here(const model::Case& c, const device::ProbeReport& machine, int device) {
  return std::visit(
      [&](const auto& def) -> std::string {
        using Pattern = std::decay_t<decltype(def)>;
        if constexpr (Pattern::kNeedsGpu) {
          if (device < 0 || device >= static_cast<int>(machine.devices.size()))
            return "no device " + std::to_string(device) + " here (" + std::to_string(machine.devices.size()) + " found)";
          if (!machine.devices[static_cast<std::size_t>(device)].vmm)
            return "device " + std::to_string(device) + " does not support virtual memory management";
        }
        return why_not_here(def, machine, device);
      },
      c.def);
}

std::string memory_why_not(patterns::Memory m, const device::DeviceCaps& d) {
  const std::string dev = "device " + std::to_string(d.index);
  switch (m) {
    case patterns::Memory::Device: return "";
    case patterns::Memory::Compressible:
      return d.compression ? "" : dev + " does not report compressible memory (CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 0)";
    case patterns::Memory::HostNuma:
      if (!d.host_numa_vmm)
        return dev + " does not map host NUMA memory with the VMM API "
                     "(CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 0)";
      return d.host_numa_id >= 0 ? "" : dev + " reports no host NUMA node (CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID = -1)";
  }
  return "";
}

std::string two_gpus_why_not(const device::ProbeReport& machine, int device) {
  const std::size_t count = machine.devices.size();
  if (count < 2)
    return "needs two GPUs; this machine has " + std::to_string(count) +
           " (run on a multi-GPU machine, or with CUDA_VISIBLE_DEVICES naming two)";
  const auto d = static_cast<std::size_t>(device);
  for (std::size_t other = 0; other < count; ++other)
    if (other != d && machine.peer_access.at(other).at(d) && machine.peer_access.at(d).at(other)) return "";
  return "needs two GPUs that can access each other; no device here can access GPU " + std::to_string(device) +
         " as a peer (cudaDeviceCanAccessPeer)";
}

}  // namespace vmmcheck::run
