// Runner of peer.kernels (patterns/peer_pair/definition.hpp): a writer on GPU 0, a reader on GPU 1 through
// view A or an alias granted to GPU 1 alone. GPU 1's stream, buffers and counters are made for the case
// and made current only around the work they do.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "run/kit/checked_words.hpp"
#include "kernels/operations.hpp"
#include "run/kit/devices.hpp"
#include "run/kit/hold.hpp"
#include "run/kit/operations.hpp"
#include "run/kit/session.hpp"
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
  // order keeps it from starting first (run/kit/hold.hpp).
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

// A second GPU that reaches this one and that this one reaches.
std::string why_not_here(const patterns::PeerPair&, const device::ProbeReport& machine, int device) {
  return two_gpus_why_not(machine, device);
}

}  // namespace vmmcheck::run
