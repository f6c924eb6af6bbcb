// access.*: reaching memory through one view against two aliases of it (docs/bench.md). With two views
// every page is reached through both, so address translation holds twice the pages; the sizes go past
// the TLB's reach, so what differs is what aliasing costs. On each memory kind the suite's aliases use.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "bench/bench.hpp"
#include "common/cuda_objects.hpp"
#include "common/error.hpp"
#include "kernels/bench.hpp"
#include "vocabulary/axes.hpp"
#include "vmm/alias_set.hpp"
#include "vmm/memory_kind.hpp"

namespace vmmcheck::bench {
namespace {

// `bytes` of memory of `kind` on `device`, mapped as two views, filled so that it does not compress.
vmm::AliasSet two_views(patterns::Memory kind, int device, std::size_t bytes, cudaStream_t stream) {
  vmm::AliasSet set = vmm::alias_set_of(kind, vmm::memory_kind(kind, device), device, bytes, std::vector<vmm::ViewSpec>(2));
  kernels::launch_fill_hashed(reinterpret_cast<std::uint32_t*>(set.view(0).address), set.size() / 4, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return set;
}

}  // namespace

void bench_access(Run& run, const Plan& plan) {
  const int dev = run.settings().device;
  const std::size_t bytes = plan.access_size;
  for (const patterns::Memory kind : {patterns::Memory::Device, patterns::Memory::Compressible, patterns::Memory::HostNuma}) {
    const std::string memory(patterns::token(kind));
    const auto rows = [&](const char* bench, const char* unit, Better better) {
      std::vector<Row> out;
      for (int views : {1, 2}) {
        Row r{bench, Json{{"memory", memory}, {"views", views}, {"size", bytes}}, unit, better};
        out.push_back(std::move(r));
      }
      return out;
    };
    std::optional<vmm::AliasSet> set;
    run::Stream stream = run::Stream::create();
    const auto memory_set = [&]() -> const vmm::AliasSet& {
      if (!set) set.emplace(two_views(kind, dev, bytes, stream));
      return *set;
    };

    // Bandwidth: one sample is one read of every byte, GB/s. One view and two alternate sample by sample,
    // so a drift over the run (clocks, temperature) falls on both alike.
    run.measure(rows("access.bandwidth", "GB/s", Better::Higher), [&] {
      const vmm::AliasSet& s = memory_set();
      const void* a = reinterpret_cast<const void*>(s.view(0).address);
      const void* b = reinterpret_cast<const void*>(s.view(1).address);
      run::DeviceBuffer<std::uint32_t> sink(1);
      return sample(run.settings().policy, 2, [&](std::vector<double>& t) {
        for (int v = 0; v < 2; ++v) {
          const float ms = kernels::time_read(a, v == 0 ? a : b, s.size(), plan.access_stride, sink.get(), stream);
          t[v] = static_cast<double>(s.size()) / (ms * 1e-3) / 1e9;
        }
      });
    });

    // Latency: a random cycle over one word per chase_slot bytes (far more lines than L2 holds), followed
    // hop by hop; one sample is the mean time of a hop, ns.
    run.measure(rows("access.latency", "ns", Better::Lower), [&] {
      const vmm::AliasSet& s = memory_set();
      char* a = reinterpret_cast<char*>(s.view(0).address);
      const char* b = reinterpret_cast<const char*>(s.view(1).address);
      const std::uint64_t slots = s.size() / plan.chase_slot;
      std::vector<std::uint32_t> order(slots);
      std::iota(order.begin(), order.end(), 0u);
      std::shuffle(order.begin(), order.end(), std::mt19937_64(0x5eed));
      run::DeviceBuffer<std::uint32_t> device_order(slots);
      // On `stream`, then waited for: a pageable cudaMemcpy may return before the copy lands, and the
      // non-blocking stream would not wait for it.
      CUDA_CHECK(cudaMemcpyAsync(device_order.get(), order.data(), slots * sizeof(std::uint32_t), cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      kernels::launch_link_cycle(a, device_order.get(), slots, plan.chase_slot, stream);
      run::DeviceBuffer<std::uint64_t> position(1);
      const std::uint64_t start = order[0] * plan.chase_slot + kernels::slot_word_offset(order[0], plan.chase_slot);
      CUDA_CHECK(cudaMemcpyAsync(position.get(), &start, sizeof(start), cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      return sample(run.settings().policy, 2, [&](std::vector<double>& t) {
        for (int v = 0; v < 2; ++v) {
          const float ms = kernels::time_chase(a, v == 0 ? a : b, position.get(), plan.chase_hops, stream);
          t[v] = static_cast<double>(ms) * 1e6 / plan.chase_hops;
        }
      });
    });
    // The link kernel wrote the chase words over the fill: the next kind starts with a set of its own.
  }
}

}  // namespace vmmcheck::bench
