// vmm.*: each VMM call of an allocation's life, timed alone (docs/bench.md). One sample is one life --
// create, reserve, map, grant, unmap, release, free -- so each call meets the state it meets in real use.
#include <cuda.h>

#include "bench/bench.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "run/kit/devices.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::bench {
namespace {

Row row(const char* bench, std::size_t size) { return Row{bench, Json{{"size", size}}}; }

}  // namespace

void bench_vmm_calls(Run& run, const Plan& plan) {
  const int dev = run.settings().device;
  const std::size_t granularity = vmm::allocation_granularity(dev, false);
  for (const std::size_t size : plan.sizes) {
    std::vector<Row> rows{row("vmm.create", size), row("vmm.reserve", size), row("vmm.map", size),
                          Row{"vmm.set_access", Json{{"size", size}, {"devices", 1}}},
                          row("vmm.unmap", size), row("vmm.release", size), row("vmm.free", size)};
    run.measure(std::move(rows), [&] {
      return sample(run.settings().policy, 7, [&](std::vector<double>& t) {
        vmm::PhysicalAllocation memory;
        vmm::AddressRange range;
        vmm::Mapping mapping;
        t[0] = time_us([&] { memory = vmm::PhysicalAllocation(dev, size); });
        t[1] = time_us([&] { range = vmm::AddressRange(size, granularity); });
        t[2] = time_us([&] { mapping = vmm::Mapping(range.base(), size, memory, 0); });
        t[3] = time_us([&] { (void)vmm::AccessGrant(mapping, dev, vmm::Access::ReadWrite); });
        // The release order of the guide (4.17.3.5): unmap, release, free.
        t[4] = time_us([&] { VMM_CHECK(mapping.unmap()); });
        t[5] = time_us([&] { VMM_CHECK(memory.release()); });
        t[6] = time_us([&] { VMM_CHECK(range.free()); });
      });
    });

    // One cuMemSetAccess naming two GPUs: this one and a peer (cuMemSetAccess takes a descriptor each).
    Row two{"vmm.set_access", Json{{"size", size}, {"devices", 2}}};
    run.measure({two}, [&] {
      const int peer = run::peer_of(dev);  // NotSupportedError, saying what is missing, on one GPU
      return sample(run.settings().policy, 1, [&](std::vector<double>& t) {
        // Declared in the reverse of the release order: unmap, release, free.
        vmm::AddressRange range(size, granularity);
        vmm::PhysicalAllocation memory(dev, size);
        vmm::Mapping mapping(range.base(), size, memory, 0);
        CUmemAccessDesc grants[2] = {};
        for (int i = 0; i < 2; ++i) {
          grants[i].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
          grants[i].location.id = i == 0 ? dev : peer;
          grants[i].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        }
        t[0] = time_us([&] { VMM_CHECK(driver().cuMemSetAccess(mapping.address(), size, grants, 2)); });
      });
    });
  }
}

}  // namespace vmmcheck::bench
