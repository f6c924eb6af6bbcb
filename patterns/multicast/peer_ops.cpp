// The second process's side of multicast.processes: join the team whose object the first process
// exported (asking the multicast gate again here), fill this process's memory of it, and make the
// second access. Every multicast call goes through harness/vmm/multicast.cpp, behind the gate.
#include <optional>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "device/multicast_gate.hpp"
#include "patterns/multicast/kernels.hpp"
#include "run/kit/checked_words.hpp"
#include "patterns/multicast/peer_requests.hpp"
#include "vmm/multicast.hpp"

namespace vmmcheck::run {
namespace {

// This process's part of a team another process created (vmm/multicast.hpp, join): its memory bound to
// the object, the object and the memory mapped. Declared in the reverse of the release order: unmap,
// unbind and release, release the memory, free the ranges.
struct MulticastPart : PeerState::Extension {
  vmm::AddressRange mc_range, uc_range;
  vmm::PhysicalAllocation memory;
  std::optional<vmm::MulticastTeam> team;
  vmm::Mapping mc, uc;
};

MulticastPart& joined(PeerState& s, const char* op) {
  auto* part = dynamic_cast<MulticastPart*>(s.extension.get());
  if (!part) throw std::runtime_error(std::string(op) + ": no multicast team joined");
  return *part;
}

}  // namespace

nlohmann::json handle(PeerState& s, const peer::McJoin& q, UniqueFd fd) {
  if (!fd.held()) throw std::runtime_error("mc_join: no file descriptor came with the request");
  int supported = 0;
  VMM_CHECK(driver().cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, s.device()));
  // The gate, asked again in this process: its environment is the parent's.
  const device::GateDecision gate = device::multicast_gate_from_environment(supported != 0, false);
  const std::size_t g = vmm::allocation_granularity(s.device(), false);
  auto part = std::make_unique<MulticastPart>();
  part->mc_range = vmm::AddressRange(q.size, g);
  part->uc_range = vmm::AddressRange(q.size, g);
  part->memory = vmm::PhysicalAllocation(s.device(), q.size, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  part->team.emplace(vmm::MulticastTeam::join(gate, fd.get(), q.size, {s.device(), part->memory.handle()}));
  part->mc = vmm::Mapping(part->mc_range.base(), q.size, part->team->handle(), 0);
  vmm::AccessGrant(part->mc, s.device(), vmm::Access::ReadWrite);
  part->uc = vmm::Mapping(part->uc_range.base(), q.size, part->memory, 0);
  vmm::AccessGrant(part->uc, s.device(), vmm::Access::ReadWrite);
  s.extension = std::move(part);
  return {{"ok", true}};
}

nlohmann::json handle(PeerState& s, const peer::McFill& q, UniqueFd) {
  fill(joined(s, "mc_fill").uc.address(), q.words, q.value, s.stream());
  return {{"ok", true}};
}

nlohmann::json handle(PeerState& s, const peer::McSecond& q, UniqueFd) {
  MulticastPart& part = joined(s, "mc_second");
  kernels::MulticastArgs a;
  a.multicast = words_at(part.mc.address());
  a.unicast = words_at(part.uc.address());
  a.count = q.words;
  a.op = q.op;
  a.value = a.expect = q.value;
  return s.counted(q.wait_event, q.raise, [&](unsigned long long* counters) {
    a.histogram = counters;
    kernels::launch_multicast_second(a, s.stream());
  });
}

}  // namespace vmmcheck::run
