// chunks.map: the same bytes mapped as one allocation or as many (docs/bench.md). A growable allocator
// maps many small chunks; this is what it pays per byte against one big mapping. Only map + grant are
// timed; the chunks are created before and released after.
#include "bench/bench.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::bench {

void bench_chunks(Run& run, const Plan& plan) {
  const int dev = run.settings().device;
  const std::size_t granularity = vmm::allocation_granularity(dev, false);
  const std::size_t total = plan.chunks_total;
  for (const std::size_t count : plan.chunk_counts) {
    const std::size_t chunk = total / count;
    run.measure({Row{"chunks.map", Json{{"total", total}, {"chunks", count}}}}, [&] {
      return sample(run.settings().policy, 1, [&](std::vector<double>& t) {
        // Declared in the reverse of the release order: mappings go first, then allocations, then the range.
        vmm::AddressRange range(total, granularity);
        std::vector<vmm::PhysicalAllocation> memory;
        memory.reserve(count);
        for (std::size_t i = 0; i < count; ++i) memory.emplace_back(dev, chunk);
        std::vector<vmm::Mapping> mappings;
        mappings.reserve(count);
        t[0] = time_us([&] {
          for (std::size_t i = 0; i < count; ++i) {
            mappings.emplace_back(range.base() + i * chunk, chunk, memory[i], 0);
            (void)vmm::AccessGrant(mappings.back(), dev, vmm::Access::ReadWrite);
          }
        });
      });
    });
  }
}

}  // namespace vmmcheck::bench
