// Runner of multicast.* (patterns/multicast.hpp): a team of this one device, its memory reached
// through the multicast object's mapping and through its own unicast mapping. Nothing is created unless
// the multicast gate allows it (docs/design.md, "The multicast gate"): refused, the case is
// NotSupported with the gate's reason and no multicast call has been made.
#include <algorithm>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "device/multicast_gate.hpp"
#include "kernels/multicast.hpp"
#include "kernels/operations.hpp"
#include "run/operations.hpp"
#include "vmm/multicast.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::Multicast& def, const model::Case& c, CaseResult& r) {
  const int dev = s.device();
  int supported = 0;
  VMM_CHECK(driver().cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, dev));
  const device::GateDecision gate = device::multicast_gate_from_environment(supported != 0, false);
  if (!gate.allowed) throw NotSupportedError("multicast refused by the gate: " + gate.reason);

  const Budget& b = s.budget();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::size_t bytes = vmm::round_up(vmm::multicast_size(gate, 1, g), g);
  // Declared so that destruction follows the release order: unmap, unbind and release, free.
  vmm::AddressRange mc_range(bytes, g), uc_range(bytes, g);
  vmm::PhysicalAllocation memory(dev, bytes, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  vmm::MulticastTeam team(gate, {{dev, memory.handle()}}, bytes);
  vmm::Mapping mc(mc_range.base(), team.size(), team.handle(), 0);
  vmm::AccessGrant mc_grant(mc, dev, vmm::Access::ReadWrite);
  vmm::Mapping uc(uc_range.base(), bytes, memory, 0);
  vmm::AccessGrant uc_grant(uc, dev, vmm::Access::ReadWrite);

  kernels::MulticastArgs a;
  a.multicast = reinterpret_cast<std::uint32_t*>(mc.address());
  a.unicast = reinterpret_cast<std::uint32_t*>(uc.address());
  a.count = std::min<std::uint64_t>(bytes / sizeof(std::uint32_t), b.op_words);
  a.op = def.op;
  a.fence = def.fence == patterns::Fence::ProxyAlias;
  a.histogram = s.histogram();
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    a.value = v.new_value;
    // A reduction adds one to what the word held.
    kernels::launch_fill(a.unicast, a.count, def.op == patterns::MulticastOp::Reduce ? v.new_value - 1 : v.old_value,
                         s.work());
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    if (def.order == patterns::Order::Event) {
      kernels::launch_multicast_first(a, s.work());
      CUDA_CHECK(cudaEventRecord(s.handoff(), s.work()));
      CUDA_CHECK(cudaStreamWaitEvent(s.second(), s.handoff(), 0));
      kernels::launch_multicast_second(a, s.second());
    } else {
      kernels::launch_multicast_pair(a, s.work());
    }
    s.synchronize();
  }
  s.read_histogram(r.histogram);
  r.instances = a.count * b.iterations;
}

}  // namespace vmmcheck::run
