// Runners for the operation-level families: the write and the read are separate device operations
// (kernels, copies, memsets), ordered -- or not -- by streams, events, the host, a graph, or a signal
// to a grid that was already running.
#include <chrono>
#include <thread>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "litmus.hpp"
#include "run/session.hpp"

namespace vmmcheck::run {
namespace {

struct Values {
  std::uint32_t old_value, new_value;
};

// Distinct, seeded old and new values per iteration, so nothing is left over from another case.
Values values_for(const Budget& b, const std::string& name, std::uint32_t it) {
  const std::uint64_t h = case_seed(b, name, it);
  Values v{static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32) & ~1u};
  if (v.new_value == v.old_value) v.new_value ^= 0x80000000u;
  return v;
}

// Sets every word of the region to `value` through view A and waits, so each iteration starts settled.
void reset_region(GpuSession& s, std::uint64_t words, std::uint32_t value) {
  kernels::launch_fill(s.words(ViewId::A), words, value, s.stream(0));
  CUDA_CHECK(cudaStreamSynchronize(s.stream(0)));
}

}  // namespace

void run_kernel_pair(GpuSession& s, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words;
  const std::string& writer = c.axis("writer");
  const std::string& reader = c.axis("reader");
  const std::string& order = c.axis("order");
  std::uint32_t* const target = s.words(ViewId::A);
  std::uint32_t* const view = s.words(view_of(c.axis("view")));
  const kernels::LoadKind load = reader == "kernel_nc" ? kernels::LoadKind::NonCoherent : kernels::LoadKind::Weak;
  std::uint32_t* const copy_source = s.plain();      // the memcpy writer's source
  std::uint32_t* const copy_target = s.plain() + n;  // the memcpy reader's destination

  auto write = [&](cudaStream_t st, const Values& v) {
    if (writer == "kernel") kernels::launch_fill(target, n, v.new_value, st);
    else if (writer == "memcpy") CUDA_CHECK(cudaMemcpyAsync(target, copy_source, n * 4, cudaMemcpyDeviceToDevice, st));
    else VMM_CHECK(driver().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(target), v.new_value, n, st));
  };
  auto read = [&](cudaStream_t st, const Values& v) {
    if (reader == "memcpy") {
      // The copy is the reader; a kernel later in the same stream counts what it copied.
      CUDA_CHECK(cudaMemcpyAsync(copy_target, view, n * 4, cudaMemcpyDeviceToDevice, st));
      kernels::launch_count(copy_target, n, kernels::LoadKind::Weak, v.new_value, v.old_value, s.histogram(), st);
    } else {
      kernels::launch_count(view, n, load, v.new_value, v.old_value, s.histogram(), st);
    }
  };

  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    reset_region(s, n, v.old_value);
    kernels::launch_fill(copy_source, n, v.new_value, s.stream(0));
    kernels::launch_prime(view, n, s.sink(), s.stream(0));  // the reader's view now caches old values
    CUDA_CHECK(cudaStreamSynchronize(s.stream(0)));

    cudaStream_t first = s.stream(0), second = s.stream(1);
    if (order == "stream") {
      write(first, v);
      read(first, v);
    } else if (order == "event") {
      write(first, v);
      CUDA_CHECK(cudaEventRecord(s.event(2), first));
      CUDA_CHECK(cudaStreamWaitEvent(second, s.event(2), 0));
      read(second, v);
    } else if (order == "host") {
      write(first, v);
      CUDA_CHECK(cudaStreamSynchronize(first));
      read(second, v);
    } else if (order == "graph") {
      // Captured on one stream: the reader node depends on the writer node (a graph edge).
      cudaGraph_t raw = nullptr;
      CUDA_CHECK(cudaStreamBeginCapture(first, cudaStreamCaptureModeThreadLocal));
      write(first, v);
      read(first, v);
      CUDA_CHECK(cudaStreamEndCapture(first, &raw));
      Graph graph(raw);
      cudaGraphExec_t exec_raw = nullptr;
      CUDA_CHECK(cudaGraphInstantiate(&exec_raw, graph, 0));
      GraphExec exec(exec_raw);
      CUDA_CHECK(cudaGraphLaunch(exec, first));
      CUDA_CHECK(cudaStreamSynchronize(first));
    } else {  // "none": two streams, nothing between them
      write(first, v);
      read(second, v);
    }
    s.synchronize();
  }
  s.read_histogram(r.histogram);
  r.instances = n * b.iterations;
}

void run_resident(GpuSession& s, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words;
  const std::string& signal = c.axis("signal");
  const std::string& load = c.axis("load");
  const int blocks = kernels::resident_blocks();

  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    reset_region(s, n, v.old_value);
    volatile std::uint32_t* ready = s.ready();
    *ready = 0;
    __atomic_store_n(s.flag(), 0u, __ATOMIC_RELEASE);

    kernels::ResidentArgs a;
    a.view = s.words(view_of(c.axis("view")));
    a.count = n;
    a.load = load == "nc" ? kernels::LoadKind::NonCoherent
             : load == "volatile" ? kernels::LoadKind::Volatile : kernels::LoadKind::Weak;
    a.new_value = v.new_value;
    a.old_value = v.old_value;
    a.ready = ready;
    a.flag = s.flag();
    a.spin_timeout_ns = static_cast<std::uint64_t>(b.resident_timeout_ms * 1e6);
    a.histogram = s.histogram();
    a.sink = s.sink();
    kernels::launch_resident_reader(a, blocks, s.stream(1));

    // The clause is about grids resident *before* the write: wait until every reader block runs.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(b.resident_timeout_ms);
    while (*ready < static_cast<std::uint32_t>(blocks) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    const bool resident = *ready >= static_cast<std::uint32_t>(blocks);

    kernels::launch_fill(s.words(ViewId::A), n, v.new_value, s.stream(0));  // the writing operation
    if (signal == "kernel") {
      CUDA_CHECK(cudaEventRecord(s.event(2), s.stream(0)));
      CUDA_CHECK(cudaStreamWaitEvent(s.stream(2), s.event(2), 0));
      kernels::launch_signal(s.flag(), s.stream(2));
    } else {
      CUDA_CHECK(cudaStreamSynchronize(s.stream(0)));
      __atomic_store_n(s.flag(), 1u, __ATOMIC_RELEASE);
    }
    s.synchronize();
    if (!resident)
      throw std::runtime_error("the reader grid did not become resident before the writer (" +
                               std::to_string(*ready) + " of " + std::to_string(blocks) + " blocks)");
  }
  s.read_histogram(r.histogram);
  r.instances = n * b.iterations;
}

}  // namespace vmmcheck::run
