// Runner of multicast.* (patterns/multicast/definition.hpp): a team of every device this process can team (or, for
// processes = two, this device and a second vmmcheck process on another GPU), each device's memory
// reached through the multicast object's mapping and through its own unicast mapping. Nothing is
// created unless the multicast gate allows it (docs/design.md, "The multicast gate"): refused, the case
// is NotSupported with the gate's reason and no multicast call has been made. Not run on hardware by
// this project (README, Safety).
#include <algorithm>
#include <optional>

#include "patterns/multicast/peer_requests.hpp"
#include "run/kit/support.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "device/multicast_gate.hpp"
#include "patterns/multicast/kernels.hpp"
#include "kernels/operations.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/devices.hpp"
#include "run/kit/hold.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/operations.hpp"
#include "run/kit/peer_process.hpp"
#include "run/kit/peer_work.hpp"
#include "run/kit/session.hpp"
#include "vmm/multicast.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {
namespace {

using patterns::MulticastOp;

device::GateDecision gate_for(int device) {
  int supported = 0;
  VMM_CHECK(driver().cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, device));
  return device::multicast_gate_from_environment(supported != 0, false);
}

// The team of one process: `first`, then every other device that reports multicast, passes the gate and
// can access `first` and be accessed by it.
std::vector<int> team_devices(int first) {
  std::vector<int> team{first};
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  for (int d = 0; d < count; ++d) {
    if (d == first || !gate_for(d).allowed) continue;
    int there = 0, back = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&there, d, first));
    CUDA_CHECK(cudaDeviceCanAccessPeer(&back, first, d));
    if (there && back) team.push_back(d);
  }
  return team;
}

// The word every device holds before the first access: a reduction adds one to it.
std::uint32_t before(const patterns::Multicast& def, const Values& v) {
  return def.op == MulticastOp::Reduce ? v.new_value - 1 : v.old_value;
}

void run_one_process(GpuSession& s, const patterns::Multicast& def, const model::Case& c, CaseResult& r,
                     const device::GateDecision& gate) {
  const int dev = s.device();
  const std::vector<int> devices = team_devices(dev);
  const std::size_t n_dev = devices.size();
  const Budget& b = s.budget();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::size_t bytes = vmm::round_up(vmm::multicast_size(gate, n_dev, g), g);
  std::vector<DeviceWork> others;
  for (std::size_t i = 1; i < n_dev; ++i) others.emplace_back(devices[i]);

  // Declared so that destruction follows the release order: unmap, unbind and release, free.
  vmm::AddressRange mc_range(bytes, g);
  std::vector<vmm::AddressRange> uc_ranges;
  std::vector<vmm::PhysicalAllocation> memory;
  std::vector<vmm::TeamMember> members;
  for (const int d : devices) {
    uc_ranges.emplace_back(bytes, g);
    memory.emplace_back(d, bytes, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    members.push_back({d, memory.back().handle()});
  }
  vmm::MulticastTeam team(gate, members, bytes);
  vmm::Mapping mc(mc_range.base(), team.size(), team.handle(), 0);
  for (const int d : devices) vmm::AccessGrant(mc, d, vmm::Access::ReadWrite);
  std::vector<vmm::Mapping> uc;
  for (std::size_t i = 0; i < n_dev; ++i) {
    uc.emplace_back(uc_ranges[i].base(), bytes, memory[i], 0);
    vmm::AccessGrant(uc.back(), devices[i], vmm::Access::ReadWrite);
  }

  kernels::MulticastArgs a;
  a.multicast = words_at(mc.address());
  a.unicast = words_at(uc[0].address());
  a.count = std::min<std::uint64_t>(bytes / sizeof(std::uint32_t), b.op_words);
  a.op = def.op;
  a.fence = def.fence == patterns::Fence::ProxyAlias && !mutated(Mutant::NoProxyFence);
  a.histogram = s.histogram();
  // On device i: `args` with device i's unicast mapping and counters.
  auto on = [&](std::size_t i, kernels::MulticastArgs args) {
    args.unicast = words_at(uc[i].address());
    if (i > 0) args.histogram = others[i - 1].counts->get();
    return args;
  };
  auto stream_of = [&](std::size_t i) { return i == 0 ? s.second() : others[i - 1].stream.get(); };
  std::uint64_t seconds = 0;  // second accesses made per word (one per reading device)
  Hold hold(s.latch(), kHoldInProcess);
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    a.value = v.new_value;
    // ld_reduce sums every device's word: each holds the value once the first accesses are done.
    a.expect = def.op == MulticastOp::LoadReduce ? v.new_value * static_cast<std::uint32_t>(n_dev) : v.new_value;
    for (std::size_t i = 0; i < n_dev; ++i) {
      DeviceScope scope(devices[i]);
      fill(uc[i].address(), a.count, before(def, v), stream_of(i));
    }
    if (def.order == patterns::Order::Event && def.op != MulticastOp::LoadReduce) {
      // The multimem access from this device, held until this device's reader starts (run/kit/hold.hpp);
      // then every device reads its own memory after the event.
      hold.before_earlier(s.work(), v.new_value);
      kernels::launch_multicast_first(a, s.work());
      CUDA_CHECK(cudaEventRecord(s.handoff(), s.work()));
      for (std::size_t i = 0; i < n_dev; ++i) {
        DeviceScope scope(devices[i]);
        if (!mutated(Mutant::NoEventWait)) CUDA_CHECK(cudaStreamWaitEvent(stream_of(i), s.handoff(), 0));
        hold.before_later(stream_of(i), v.new_value);
        kernels::launch_multicast_second(on(i, a), stream_of(i));
      }
      seconds += n_dev;
    } else if (def.order == patterns::Order::Event) {
      // Every device stores to its own memory; the reduction reads all of it after every device's event.
      for (std::size_t i = 0; i < n_dev; ++i) {
        DeviceScope scope(devices[i]);
        const cudaStream_t st = i == 0 ? s.work() : stream_of(i);
        kernels::launch_multicast_first(on(i, a), st);
        CUDA_CHECK(cudaEventRecord(i == 0 ? s.handoff() : others[i - 1].done.get(), st));
      }
      if (!mutated(Mutant::NoEventWait)) {
        CUDA_CHECK(cudaStreamWaitEvent(s.second(), s.handoff(), 0));
        for (const DeviceWork& m : others) CUDA_CHECK(cudaStreamWaitEvent(s.second(), m.done, 0));
      }
      kernels::launch_multicast_second(a, s.second());
      seconds += 1;
    } else {
      // One kernel on this device. For ld_reduce the other devices' words already hold the value.
      if (def.op == MulticastOp::LoadReduce)
        for (std::size_t i = 1; i < n_dev; ++i) {
          DeviceScope scope(devices[i]);
          fill(uc[i].address(), a.count, v.new_value, stream_of(i));
        }
      kernels::launch_multicast_pair(a, s.work());
      seconds += 1;
    }
    s.synchronize();
    for (DeviceWork& m : others) CUDA_CHECK(cudaStreamSynchronize(m.stream));
  }
  s.read_histogram(r.histogram);
  for (DeviceWork& m : others) m.counts->add_into(r.histogram, m.stream);
  r.instances = a.count * seconds;
}

// Two processes: this one creates the object for two devices and makes the multimem access; the other
// (run/execution/peer_server.hpp, on another GPU) joins through the exported object and reads its own memory.
void run_two_processes(GpuSession& s, const patterns::Multicast& def, const model::Case& c, CaseResult& r,
                       const device::GateDecision& gate) {
  if (def.op == MulticastOp::LoadReduce) throw InputError(c.name + ": ld_reduce is not a two-process case");
  const int dev = s.device(), other = peer_of(dev);
  const Budget& b = s.budget();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::size_t bytes = vmm::round_up(vmm::multicast_size(gate, 2, g), g);
  vmm::AddressRange mc_range(bytes, g), uc_range(bytes, g);
  vmm::PhysicalAllocation memory(dev, bytes, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  vmm::MulticastTeam team(gate, 2, {dev, memory.handle()}, bytes, vmm::MulticastTeam::Shared{});
  PeerProcess peer(other);
  {
    const UniqueFd exported(team.export_fd());
    peer.call(peer::McJoin{team.size()}, exported.get());  // it adds its device and binds
  }
  team.bind_own();
  vmm::Mapping mc(mc_range.base(), team.size(), team.handle(), 0);
  vmm::AccessGrant mc_grant(mc, dev, vmm::Access::ReadWrite);
  vmm::Mapping uc(uc_range.base(), bytes, memory, 0);
  vmm::AccessGrant uc_grant(uc, dev, vmm::Access::ReadWrite);
  const Event event = share_event(peer);
  const SharedHostPage latch = share_latch(peer);
  Hold hold(latch.words(), kHoldAcrossProcesses);

  kernels::MulticastArgs a;
  a.multicast = words_at(mc.address());
  a.unicast = words_at(uc.address());
  a.count = std::min<std::uint64_t>(bytes / sizeof(std::uint32_t), b.op_words);
  a.op = def.op;
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    fill(uc.address(), a.count, before(def, v), s.work());
    peer.call(peer::McFill{a.count, before(def, v)});
    a.value = a.expect = v.new_value;
    // The first access is held until the other process's second starts (after its event wait, if any).
    const bool wait = def.order == patterns::Order::Event && !mutated(Mutant::NoEventWait);
    const peer::McSecond second{a.count, def.op, v.new_value, wait, v.new_value};
    hold.before_earlier(s.work(), v.new_value);
    kernels::launch_multicast_first(a, s.work());
    if (def.order == patterns::Order::Event) CUDA_CHECK(cudaEventRecord(event, s.work()));
    const nlohmann::json counted = peer.call(second);
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    hold.count(v.new_value);
    add_bins(r.histogram, counted);
  }
  r.instances = a.count * b.iterations;
  r.reason = hold.summary("multimem access", "other process's unicast access");
}

}  // namespace

void run_pattern(GpuSession& s, const patterns::Multicast& def, const model::Case& c, CaseResult& r) {
  // The support stage let the case through only where the gate allows; the gated module asks again
  // before any multicast call (vmm/multicast.cpp).
  const device::GateDecision gate = gate_for(s.device());
  if (def.processes == patterns::TeamProcesses::Two) run_two_processes(s, def, c, r, gate);
  else run_one_process(s, def, c, r, gate);
}

// The multicast gate (docs/design.md, "The multicast gate") must allow this device; a team shared by two
// processes needs a second GPU, which the other process asks the gate about again.
std::string why_not_here(const patterns::Multicast& def, const device::ProbeReport& machine, int device) {
  const device::GateDecision& gate = machine.devices.at(static_cast<std::size_t>(device)).multicast_gate;
  if (!gate.allowed) return "multicast refused by the gate: " + gate.reason;
  if (def.processes == patterns::TeamProcesses::Two) return two_gpus_why_not(machine, device);
  return "";
}

}  // namespace vmmcheck::run
