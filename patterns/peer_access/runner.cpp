// Runner of peer.access (patterns/peer_access/definition.hpp): how GPU 1 reaches GPU 0's memory -- a VMM
// grant, none, peer access without a grant, copies, a range stitched from both GPUs' memory. Every case
// builds its own allocations with the RAII owners.
#include <algorithm>

#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/contract.hpp"
#include "kernels/operations.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/devices.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/session.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {
namespace {

constexpr std::uint32_t kValue = 0x5eed0001u;

// Reads `words` words at `address` with a kernel on GPU `device` and counts how many hold kValue, or
// records the fault.
void read_on(GpuSession& s, int device, CUdeviceptr address, std::uint64_t words, CaseResult& r) {
  const DeviceScope on(device);
  const Stream stream = Stream::create();
  check_read(s, address, words, kValue, stream, "GPU " + std::to_string(device) + "'s read", r);
}

static_assert(patterns::PeerAccess::Completed == kCompleted && patterns::PeerAccess::Fault == kFault &&
              patterns::PeerAccess::Wrong == kWrong);

}  // namespace

void run_pattern(GpuSession& s, const patterns::PeerAccess& def, const model::Case&, CaseResult& r) {
  using patterns::PeerRoute;
  const int d0 = s.device(), d1 = peer_of(d0);
  { DeviceScope make_context(d1); CUDA_CHECK(cudaFree(nullptr)); }
  const std::size_t g = std::max(vmm::allocation_granularity(d0, false), vmm::allocation_granularity(d1, false));
  const std::uint64_t words = g / 4;
  // The mutants: no grant for the access under test, or every grant the case leaves out given.
  const bool cross = (def.peer_grant == patterns::Grant::ReadWrite && !mutated(Mutant::NoGrant)) || mutated(Mutant::FullGrant);
  r.instances = 1;
  switch (def.route) {
    case PeerRoute::Granted:
    case PeerRoute::NoGrant:
    case PeerRoute::PeerEnabled: {
      const bool grant = (def.route == PeerRoute::Granted && !mutated(Mutant::NoGrant)) || mutated(Mutant::FullGrant);
      const vmm::AliasSet set(d0, g, {vmm::ViewSpec{0, grant ? std::vector<int>{d0, d1} : std::vector<int>{d0}}});
      fill(set.view(0).address, words, kValue, s.work());
      if (def.route == PeerRoute::PeerEnabled) {
        DeviceScope on(d1);
        const cudaError_t e = cudaDeviceEnablePeerAccess(d0, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
        else CUDA_CHECK(e);
      }
      read_on(s, d1, set.view(0).address, words, r);
      return;
    }
    case PeerRoute::MemcpyPeer:
    case PeerRoute::MemcpyUva: {
      // GPU 0's allocation to GPU 1's; each granted to its own GPU, and with `cross` to the other too.
      const vmm::AliasSet src(d0, g, {vmm::ViewSpec{0, cross ? std::vector<int>{d0, d1} : std::vector<int>{d0}}});
      const vmm::AliasSet dst(d1, g, {vmm::ViewSpec{0, cross ? std::vector<int>{d1, d0} : std::vector<int>{d1}}});
      fill(src.view(0).address, words, kValue, s.work());
      { DeviceScope on(d1); const Stream st = Stream::create(); fill(dst.view(0).address, words, 0, st); }
      void* const to = reinterpret_cast<void*>(dst.view(0).address);
      const void* const from = reinterpret_cast<const void*>(src.view(0).address);
      const cudaError_t e = def.route == PeerRoute::MemcpyPeer
                                ? cudaMemcpyPeerAsync(to, d1, from, d0, g, s.work())
                                : cudaMemcpyAsync(to, from, g, cudaMemcpyDefault, s.work());
      if (e != cudaSuccess) {
        (void)cudaGetLastError();
        add_bin(r.histogram, patterns::PeerAccess::Fault);
        r.reason = std::string("the copy was refused: ") + cudaGetErrorName(e);
        return;
      }
      if (const std::string fault = s.wait_or_fault(s.work()); !fault.empty()) {
        add_bin(r.histogram, patterns::PeerAccess::Fault);
        r.reason = "the copy faulted: " + fault;
        return;
      }
      read_on(s, d1, dst.view(0).address, words, r);
      return;
    }
    case PeerRoute::Stitched: {
      // One range, a chunk of each GPU's memory side by side (the vectorAddMMAP shape). GPU 0 writes all
      // of it, GPU 1 reads all of it back: each touches the other's chunk.
      vmm::AddressRange range(2 * g, g);
      vmm::PhysicalAllocation lo(d0, g), hi(d1, g);
      vmm::Mapping lo_map(range.base(), g, lo, 0), hi_map(range.base() + g, g, hi, 0);
      if (cross) {
        vmm::AccessGrant(range.base(), 2 * g, d0, vmm::Access::ReadWrite);
        vmm::AccessGrant(range.base(), 2 * g, d1, vmm::Access::ReadWrite);
      } else {
        vmm::AccessGrant(lo_map, d0, vmm::Access::ReadWrite);
        vmm::AccessGrant(hi_map, d1, vmm::Access::ReadWrite);
      }
      kernels::launch_fill(words_at(range.base()), 2 * words, kValue, s.work());
      if (const std::string fault = s.wait_or_fault(s.work()); !fault.empty()) {
        add_bin(r.histogram, patterns::PeerAccess::Fault);
        r.reason = "GPU 0's write faulted: " + fault;
        return;
      }
      read_on(s, d1, range.base(), 2 * words, r);
      return;
    }
  }
}

// A second GPU that reaches this one and that this one reaches.
std::string why_not_here(const patterns::PeerAccess&, const device::ProbeReport& machine, int device) {
  return two_gpus_why_not(machine, device);
}

}  // namespace vmmcheck::run
