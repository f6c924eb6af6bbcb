// grow.*: a buffer that grows step by step (docs/bench.md). With VMM the address range is reserved once
// for the largest size and each step maps one more chunk at its end: the bytes already there stay where
// they are. Without VMM each step allocates the new size, copies the old contents over and frees the old
// buffer. One sample is one whole growth; each step is its own row.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "bench/bench.hpp"
#include "common/cuda_objects.hpp"
#include "common/error.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::bench {
namespace {

std::vector<Row> step_rows(const char* bench, std::size_t steps, std::size_t step) {
  std::vector<Row> rows;
  for (std::size_t k = 1; k <= steps; ++k) rows.push_back(Row{bench, Json{{"step", k}, {"to", k * step}}});
  return rows;
}

}  // namespace

void bench_grow(Run& run, const Plan& plan) {
  const int dev = run.settings().device;
  const std::size_t granularity = vmm::allocation_granularity(dev, false);
  const std::size_t step = plan.grow_step, steps = plan.grow_to / plan.grow_step;

  run.measure(step_rows("grow.vmm", steps, step), [&] {
    return sample(run.settings().policy, steps, [&](std::vector<double>& t) {
      // Declared in the reverse of the release order: mappings go first, then chunks, then the range.
      vmm::AddressRange range(plan.grow_to, granularity);
      std::vector<vmm::PhysicalAllocation> chunks;
      std::vector<vmm::Mapping> mappings;
      chunks.reserve(steps);
      mappings.reserve(steps);
      for (std::size_t k = 0; k < steps; ++k)
        t[k] = time_us([&] {
          chunks.emplace_back(dev, step);
          mappings.emplace_back(range.base() + k * step, step, chunks.back(), 0);
          (void)vmm::AccessGrant(mappings.back(), dev, vmm::Access::ReadWrite);
        });
    });
  });

  run.measure(step_rows("grow.cudamalloc", steps, step), [&] {
    return sample(run.settings().policy, steps, [&](std::vector<double>& t) {
      run::DeviceBuffer<std::byte> buffer;
      for (std::size_t k = 0; k < steps; ++k)
        t[k] = time_us([&] {
          run::DeviceBuffer<std::byte> bigger((k + 1) * step);
          if (k > 0) CUDA_CHECK(cudaMemcpy(bigger.get(), buffer.get(), k * step, cudaMemcpyDeviceToDevice));
          CUDA_CHECK(cudaDeviceSynchronize());  // a device-to-device cudaMemcpy may return before it is done
          buffer = std::move(bigger);           // cudaFree of the old buffer
        });
    });
  });
}

}  // namespace vmmcheck::bench
