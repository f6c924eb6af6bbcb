// Runner of alias.kernels (patterns/kernel_pair.hpp): a writing operation through view A, then a
// reading operation through a view, ordered -- or not -- by a stream, an event, the host or a graph.
// Every word the reader counts is one instance.
#include "common/driver.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "run/operations.hpp"

namespace vmmcheck::run {
namespace {

// Each repetition holds the writer back a little longer behind a delay kernel on its own stream, so an
// unordered reader (the control) runs into the write at varying points; an ordered reader still waits
// for it. Steps of the order of the reader's own run time over op_words.
constexpr std::uint64_t kDelayStepNs = 8'000;
std::uint64_t writer_delay_ns(std::uint32_t iteration) { return (1 + iteration % 4) * kDelayStepNs; }

}  // namespace

void run_pattern(GpuSession& s, const patterns::KernelPair& def, const model::Case& c, CaseResult& r) {
  using patterns::Order;
  using patterns::ReaderOp;
  using patterns::WriterOp;
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words;
  std::uint32_t* const target = s.words(patterns::View::Same);
  std::uint32_t* const view = s.words(def.view);
  std::uint32_t* const copy_source = s.plain();      // the memcpy writer's source
  std::uint32_t* const copy_target = s.plain() + n;  // the memcpy reader's destination

  auto write = [&](cudaStream_t st, const Values& v, std::uint32_t it) {
    kernels::launch_delay(writer_delay_ns(it), st);
    switch (def.writer) {
      case WriterOp::Kernel: kernels::launch_fill(target, n, v.new_value, st); break;
      case WriterOp::Memcpy: CUDA_CHECK(cudaMemcpyAsync(target, copy_source, n * 4, cudaMemcpyDeviceToDevice, st)); break;
      case WriterOp::Memset:
        VMM_CHECK(driver().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(target), v.new_value, n, st));
        break;
    }
  };
  auto read = [&](cudaStream_t st, const Values& v) {
    if (def.reader == ReaderOp::Memcpy) {
      // The copy is the reader; a kernel later in the same stream counts what it copied.
      CUDA_CHECK(cudaMemcpyAsync(copy_target, view, n * 4, cudaMemcpyDeviceToDevice, st));
      kernels::launch_count(copy_target, n, patterns::Load::Weak, v.new_value, v.old_value, s.histogram(), st);
    } else {
      kernels::launch_count(view, n, patterns::load_of(def.reader), v.new_value, v.old_value, s.histogram(), st);
    }
  };

  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    reset_region(s, n, v.old_value);
    kernels::launch_fill(copy_source, n, v.new_value, s.work());
    kernels::launch_prime(view, n, s.sink(), s.work());  // the reader's view now caches old values
    CUDA_CHECK(cudaStreamSynchronize(s.work()));

    switch (def.order) {
      case Order::Stream:
        write(s.work(), v, it);
        read(s.work(), v);
        break;
      case Order::Event:
        write(s.work(), v, it);
        CUDA_CHECK(cudaEventRecord(s.handoff(), s.work()));
        CUDA_CHECK(cudaStreamWaitEvent(s.second(), s.handoff(), 0));
        read(s.second(), v);
        break;
      case Order::Host:
        write(s.work(), v, it);
        CUDA_CHECK(cudaStreamSynchronize(s.work()));
        read(s.second(), v);
        break;
      case Order::Graph: {
        // Captured on one stream: the reader node depends on the writer node (a graph edge).
        cudaGraph_t raw = nullptr;
        CUDA_CHECK(cudaStreamBeginCapture(s.work(), cudaStreamCaptureModeThreadLocal));
        write(s.work(), v, it);
        read(s.work(), v);
        CUDA_CHECK(cudaStreamEndCapture(s.work(), &raw));
        Graph graph(raw);
        cudaGraphExec_t exec_raw = nullptr;
        CUDA_CHECK(cudaGraphInstantiate(&exec_raw, graph, 0));
        GraphExec exec(exec_raw);
        CUDA_CHECK(cudaGraphLaunch(exec, s.work()));
        CUDA_CHECK(cudaStreamSynchronize(s.work()));
        break;
      }
      case Order::None:  // two streams, nothing between them
        write(s.work(), v, it);
        read(s.second(), v);
        break;
    }
    s.synchronize();
  }
  s.read_histogram(r.histogram);
  r.instances = n * b.iterations;
}

}  // namespace vmmcheck::run
