#include "device/multicast_gate.hpp"

#include <cstdlib>
#include <cstring>

namespace vmmcheck::device {

namespace {

bool is(const char* value, const char* expected) { return value && std::strcmp(value, expected) == 0; }

}  // namespace

GateDecision multicast_gate(bool device_supports_multicast, bool user_opted_in, const SiteSwitches& site) {
  if (!device_supports_multicast) return {false, "the device does not report CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED"};
  if (is(site.nccl_nvls_enable, "0")) return {false, "NCCL_NVLS_ENABLE=0: this site has switched NVLink multicast off"};
  if (is(site.nvshmem_disable_nvls, "1"))
    return {false, "NVSHMEM_DISABLE_NVLS=1: this site has switched NVLink multicast off"};
  if (is(site.torch_symm_mem_disable_multicast, "1"))
    return {false, "TORCH_SYMM_MEM_DISABLE_MULTICAST=1: this site has switched NVLink multicast off"};
  if (!user_opted_in) return {false, "multicast is off by default; opt in with --allow-multicast or VMMCHECK_ALLOW_MULTICAST=1"};
  return {true, "supported, opted in, and not switched off by the site"};
}

GateDecision multicast_gate(bool device_supports_multicast, bool user_opted_in, const char* nccl_nvls_enable) {
  SiteSwitches site;
  site.nccl_nvls_enable = nccl_nvls_enable;
  return multicast_gate(device_supports_multicast, user_opted_in, site);
}

GateDecision multicast_gate_from_environment(bool device_supports_multicast, bool flag_opt_in) {
  const bool opted_in = flag_opt_in || is(std::getenv("VMMCHECK_ALLOW_MULTICAST"), "1");
  SiteSwitches site;
  site.nccl_nvls_enable = std::getenv("NCCL_NVLS_ENABLE");
  site.nvshmem_disable_nvls = std::getenv("NVSHMEM_DISABLE_NVLS");
  site.torch_symm_mem_disable_multicast = std::getenv("TORCH_SYMM_MEM_DISABLE_MULTICAST");
  return multicast_gate(device_supports_multicast, opted_in, site);
}

}  // namespace vmmcheck::device
