#pragma once
// The multicast safety policy (docs/design.md): cuMulticastCreate may be called only when the device reports
// MULTICAST_SUPPORTED, the user opted in, and the site has not switched NVLink multicast off. On a shared
// multi-GPU host a multicast program can take every GPU out of service, so the default is "refuse".
#include <string>

namespace vmmcheck::device {

struct GateDecision {
  bool allowed = false;
  std::string reason;  // why it refused, or what allowed it
};

// What a site sets to switch NVLink multicast off, as the values of its environment variables (nullptr:
// unset). Any one of them refuses.
struct SiteSwitches {
  const char* nccl_nvls_enable = nullptr;                  // NCCL_NVLS_ENABLE=0
  const char* nvshmem_disable_nvls = nullptr;              // NVSHMEM_DISABLE_NVLS=1
  const char* torch_symm_mem_disable_multicast = nullptr;  // TORCH_SYMM_MEM_DISABLE_MULTICAST=1
};

GateDecision multicast_gate(bool device_supports_multicast, bool user_opted_in, const SiteSwitches& site);
// Shorthand for a site that sets only NCCL_NVLS_ENABLE (`nccl_nvls_enable`, or nullptr when unset).
GateDecision multicast_gate(bool device_supports_multicast, bool user_opted_in, const char* nccl_nvls_enable);

// The same decision, reading the opt-in (VMMCHECK_ALLOW_MULTICAST=1 or the flag) and the site switches.
GateDecision multicast_gate_from_environment(bool device_supports_multicast, bool flag_opt_in);

}  // namespace vmmcheck::device
