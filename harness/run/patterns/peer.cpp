// Runners of peer.* (patterns/peer.hpp): GPU 0's memory, mapped and granted to GPU 1 with the VMM API.
// Every case builds its own allocations with the RAII owners; GPU 1's streams, buffers and counters are
// made for the case and made current only around the work they do.
#include <algorithm>
#include <optional>

#include "common/error.hpp"
#include "kernels/contract.hpp"
#include "kernels/operations.hpp"
#include "kernels/peer.hpp"
#include "run/checked_words.hpp"
#include "run/devices.hpp"
#include "run/hold.hpp"
#include "run/in_kernel.hpp"
#include "run/mutants.hpp"
#include "run/operations.hpp"
#include "run/session.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {
using patterns::Order;
using patterns::View;

void run_pattern(GpuSession& s, const patterns::PeerPair& def, const model::Case& c, CaseResult& r) {
  const int d0 = s.device(), d1 = peer_of(d0);
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words;
  DeviceWork peer(d1);
  const cudaStream_t s1 = peer.stream;
  // View A is granted to both GPUs; the alias only to GPU 1.
  const vmm::AliasSet set(d0, n * 4, {vmm::ViewSpec{0, std::vector<int>{d0, d1}}, vmm::ViewSpec{0, std::vector<int>{d1}}});
  std::uint32_t* const a = words_at(set.view(0).address);
  std::uint32_t* const view = def.view == View::Same ? a : words_at(set.view(1).address);
  Event handoff = Event::create(false);  // on GPU 0, where it is recorded
  // GPU 0's writer waits (in host-mapped memory both GPUs reach) until GPU 1's reader starts: only the
  // order keeps it from starting first (run/hold.hpp).
  Hold hold(s.latch(), kHoldInProcess);

  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    fill(set.view(0).address, n, v.old_value, s.work());
    {
      DeviceScope on(d1);
      kernels::launch_prime(view, n, peer.sink.get(), s1);  // GPU 1's path now holds old values
      CUDA_CHECK(cudaStreamSynchronize(s1));
    }
    auto read = [&](cudaStream_t st) {
      DeviceScope on(d1);
      hold.before_later(st, v.new_value);
      kernels::launch_count(view, n, patterns::Load::Weak, v.new_value, v.old_value, peer.counts->get(), st);
    };
    hold.before_earlier(s.work(), v.new_value);
    kernels::launch_fill(a, n, v.new_value, s.work());
    if (def.order == Order::None) read(s1);  // nothing between them
    else read_after(def.order, s.work(), s1, handoff, read);
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    CUDA_CHECK(cudaStreamSynchronize(s1));
    hold.count(v.new_value);
  }
  peer.counts->add_into(r.histogram, s1);
  r.instances = n * b.iterations;
  r.reason = hold.summary("writer on GPU 0", "reader on GPU 1");
}

void run_pattern(GpuSession& s, const patterns::PeerMp& def, const model::Case& c, CaseResult& r) {
  const int d0 = s.device(), d1 = peer_of(d0);
  const Budget& b = s.budget();
  DeviceWork peer(d1);
  const cudaStream_t s1 = peer.stream;
  Event start, stop;  // on GPU 1, timing the reader
  {
    DeviceScope on(d1);
    start = Event::create(true);
    stop = Event::create(true);
  }

  kernels::PeerMpArgs a;
  a.instances = static_cast<std::uint32_t>(kernels::sm_count()) * 2 * kernels::kPeerMpThreads;
  const std::uint64_t stride = (a.instances + 1023u) / 1024u * 1024u;  // data, flags, acks: apart
  const vmm::AliasSet set(d0, 3 * stride * 4, {vmm::ViewSpec{0, std::vector<int>{d0, d1}}, vmm::ViewSpec{0, std::vector<int>{d1}}});
  std::uint32_t* const base = words_at(set.view(0).address);
  a.data_write = base;
  a.flag = base + stride;
  a.ack = base + 2 * stride;
  a.data_read = def.data == View::Same ? base : words_at(set.view(1).address);
  a.reader_fence = def.fence == patterns::Fence::ProxyAlias && !mutated(Mutant::NoProxyFence);
  a.flag_sync = mutated(Mutant::RelaxedFlag) ? patterns::FlagSync::Relaxed : def.flag_sync;
  a.rounds = rounds_for(b, a.instances);
  a.spin_timeout_ns = static_cast<std::uint64_t>(b.stress.spin_timeout_us) * 1000;
  a.histogram = peer.counts->get();
  a.sink = peer.sink.get();

  float total_ms = 0;
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    a.value_base = it * a.rounds;
    fill(set.view(0).address, 3 * stride, 0, s.work());
    // The reader goes first and waits; the writer on GPU 0 starts while it does.
    {
      DeviceScope on(d1);
      CUDA_CHECK(cudaEventRecord(start, s1));
      kernels::launch_peer_mp_reader(a, s1);
      CUDA_CHECK(cudaEventRecord(stop, s1));
    }
    kernels::launch_peer_mp_writer(a, s.work());
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    total_ms += ms;
  }
  peer.counts->add_into(r.histogram, s1);
  r.instances = static_cast<std::uint64_t>(a.instances) * a.rounds * b.iterations;
  r.gpu_seconds = total_ms / 1000.0;
}

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

}  // namespace vmmcheck::run
