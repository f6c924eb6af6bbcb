// Runner of alias.resident (patterns/resident/definition.hpp): a reader grid resident before the writing operation,
// told by a signal after the writer completed. Every word the reader counts is one instance.
#include <chrono>
#include <stdexcept>
#include <thread>

#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "patterns/resident/kernels.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/operations.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::Resident& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words;
  const int blocks = kernels::resident_blocks();
  kernels::preload_resident_kernels();  // before the grid is resident (patterns/resident/kernels.hpp)

  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    reset_region(s, n, v.old_value);
    if (def.writer == patterns::WriterOp::Memcpy) kernels::launch_fill(s.plain(), n, v.new_value, s.work());  // the source
    volatile std::uint32_t* ready = s.ready();
    *ready = 0;
    __atomic_store_n(s.flag(), 0u, __ATOMIC_RELEASE);

    kernels::ResidentArgs a;
    a.view = s.words(def.view);
    a.count = n;
    a.load = def.load;
    a.new_value = v.new_value;
    a.old_value = v.old_value;
    a.ready = ready;
    a.flag = s.flag();
    a.spin_timeout_ns = static_cast<std::uint64_t>(b.resident_timeout_ms * 1e6);
    a.wait = def.signal != patterns::Signal::None && !mutated(Mutant::NoResidentSignal);
    a.acquire = def.flag_sync == patterns::FlagSync::ReleaseAcquire;
    a.histogram = s.histogram();
    a.sink = s.sink();
    kernels::launch_resident_reader(a, blocks, s.second());

    // The clause is about grids resident *before* the write: wait until every reader block runs.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(b.resident_timeout_ms);
    while (*ready < static_cast<std::uint32_t>(blocks) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    const bool resident = *ready >= static_cast<std::uint32_t>(blocks);

    write_words(def.writer, s.words(patterns::View::Same), s.plain(), n, v.new_value, s.work());  // the writing operation
    switch (def.signal) {
      case patterns::Signal::Kernel:
        CUDA_CHECK(cudaEventRecord(s.handoff(), s.work()));
        CUDA_CHECK(cudaStreamWaitEvent(s.signal(), s.handoff(), 0));
        kernels::launch_signal(s.flag(), s.signal());
        break;
      case patterns::Signal::Host:
        CUDA_CHECK(cudaStreamSynchronize(s.work()));
        __atomic_store_n(s.flag(), 1u, __ATOMIC_RELEASE);
        break;
      case patterns::Signal::None:  // the reader did not wait for one
        break;
    }
    s.synchronize();
    if (!resident)
      throw std::runtime_error("the reader grid did not become resident before the writer (" +
                               std::to_string(*ready) + " of " + std::to_string(blocks) + " blocks)");
  }
  s.read_histogram(r.histogram);
  r.instances = n * b.iterations;
}

// The memory its views are made of must be one this device offers.
std::string why_not_here(const patterns::Resident& def, const device::ProbeReport& machine, int device) {
  return memory_why_not(def.memory, machine.devices.at(static_cast<std::size_t>(device)));
}

}  // namespace vmmcheck::run
