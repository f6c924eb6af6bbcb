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

// `nccl_nvls_enable` is the value of NCCL_NVLS_ENABLE, or nullptr when unset.
GateDecision multicast_gate(bool device_supports_multicast, bool user_opted_in, const char* nccl_nvls_enable);

// The same decision, reading the opt-in (VMMCHECK_ALLOW_MULTICAST=1 or the flag) and NCCL_NVLS_ENABLE.
GateDecision multicast_gate_from_environment(bool device_supports_multicast, bool flag_opt_in);

}  // namespace vmmcheck::device
