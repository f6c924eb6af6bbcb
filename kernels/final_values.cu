// Final values: one (round, instance) a thread, a plain read of each final word once the litmus kernel is
// done (the launch boundary orders it after every write of the kernel).
#include "device/launch.cuh"
#include "device/placement.cuh"
#include "kernels/final_values.hpp"

namespace vmmcheck::kernels {
namespace {

using namespace device;

constexpr unsigned kThreads = 256;

__global__ void final_values(FinalValues f) {
  const std::uint64_t total = static_cast<std::uint64_t>(f.rounds) * f.instances;
  for (std::uint64_t i = global_thread(); i < total; i += thread_count()) {
    const std::uint64_t r = i / f.instances, m = i % f.instances;
    const std::uint64_t word = r * f.instances + (m * f.memory_stride + f.memory_offset) % f.instances;
    for (unsigned k = 0; k < f.count; ++k) f.registers[i * f.register_count + f.reg[k]] = f.region[k][word];
  }
}

}  // namespace

void launch_final_values(const FinalValues& f, cudaStream_t stream) {
  const std::uint64_t total = static_cast<std::uint64_t>(f.rounds) * f.instances;
  const std::uint64_t wanted = (total + kThreads * 8 - 1) / (kThreads * 8);
  const unsigned grid = static_cast<unsigned>(wanted < 1 ? 1 : (wanted > 1024 ? 1024 : wanted));
  launch(VMMCHECK_HERE, "final values", final_values, grid, kThreads, stream, f);
}

}  // namespace vmmcheck::kernels
