#include "device/multicast_gate.hpp"

#include <cstdlib>
#include <cstring>

namespace vmmcheck::device {

GateDecision multicast_gate(bool device_supports_multicast, bool user_opted_in, const char* nccl_nvls_enable) {
  if (!device_supports_multicast) return {false, "the device does not report CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED"};
  if (nccl_nvls_enable && std::strcmp(nccl_nvls_enable, "0") == 0)
    return {false, "NCCL_NVLS_ENABLE=0: this site has switched NVLink multicast off"};
  if (!user_opted_in) return {false, "multicast is off by default; opt in with --allow-multicast or VMMCHECK_ALLOW_MULTICAST=1"};
  return {true, "supported, opted in, and not disabled by NCCL_NVLS_ENABLE"};
}

GateDecision multicast_gate_from_environment(bool device_supports_multicast, bool flag_opt_in) {
  const char* env = std::getenv("VMMCHECK_ALLOW_MULTICAST");
  const bool opted_in = flag_opt_in || (env && std::strcmp(env, "1") == 0);
  return multicast_gate(device_supports_multicast, opted_in, std::getenv("NCCL_NVLS_ENABLE"));
}

}  // namespace vmmcheck::device
