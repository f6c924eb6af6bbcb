// Runner of alias.kernels (patterns/kernel_pair/definition.hpp): a writing operation through view A, then a
// reading operation through a view, ordered -- or not -- by a stream, an event, the host or a graph.
// Every word the reader counts is one instance.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "run/kit/hold.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/operations.hpp"

namespace vmmcheck::run {
namespace {

// The writer is held (run/kit/hold.hpp) until the reader starts, then another quarter of the time one pass
// over the words takes in each repetition (0, 1/4, 1/2, 3/4 of it; measured on the primer, which reads
// what the reader reads). The reader goes last to first, the writer first to last: an unordered reader
// (the control) crosses the write at a different word each time. An ordered reader cannot start before
// the writer ran: the hold reaches its bound, and the order holds as the case defines it.
std::uint64_t writer_delay_ns(std::uint32_t iteration, float pass_ms) {
  return static_cast<std::uint64_t>(pass_ms * 1e6f * static_cast<float>(iteration % 4) / 4.0f);
}

}  // namespace

void run_pattern(GpuSession& s, const patterns::KernelPair& def, const model::Case& c, CaseResult& r) {
  using patterns::Order;
  using patterns::ReaderOp;
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words;
  std::uint32_t* const target = s.words(patterns::View::Same);
  std::uint32_t* const view = s.words(def.view);
  std::uint32_t* const copy_source = s.plain();      // the memcpy writer's source
  std::uint32_t* const copy_target = s.plain() + n;  // the memcpy reader's destination

  float pass_ms = 0;  // this repetition's primer time
  Hold hold(s.latch(), kHoldInProcess);
  auto write = [&](cudaStream_t st, const Values& v, std::uint32_t it) {
    hold.before_earlier(st, v.new_value, writer_delay_ns(it, pass_ms));
    write_words(def.writer, target, copy_source, n, v.new_value, st);
  };
  auto read = [&](cudaStream_t st, const Values& v) {
    hold.before_later(st, v.new_value);
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
    // The reader's view now caches old values.
    pass_ms = gpu_ms(s, [&] { kernels::launch_prime(view, n, s.sink(), s.work()); });
    CUDA_CHECK(cudaStreamSynchronize(s.work()));

    switch (def.order) {
      case Order::Stream:
      case Order::Event:
      case Order::Host:
        write(s.work(), v, it);
        read_after(def.order, s.work(), s.second(), s.handoff(), [&](cudaStream_t st) { read(st, v); });
        break;
      case Order::Graph: {
        // Captured on one stream: the reader node depends on the writer node (a graph edge). The
        // mutant forks the capture to second() first, so writer and reader are both root nodes.
        cudaGraph_t raw = nullptr;
        CUDA_CHECK(cudaStreamBeginCapture(s.work(), cudaStreamCaptureModeThreadLocal));
        const bool no_edge = mutated(Mutant::NoGraphEdge);
        if (no_edge) {
          CUDA_CHECK(cudaEventRecord(s.handoff(), s.work()));
          CUDA_CHECK(cudaStreamWaitEvent(s.second(), s.handoff(), 0));
        }
        write(s.work(), v, it);
        read(no_edge ? s.second() : s.work(), v);
        if (no_edge) {  // join the fork back, as capture requires
          CUDA_CHECK(cudaEventRecord(s.handoff(), s.second()));
          CUDA_CHECK(cudaStreamWaitEvent(s.work(), s.handoff(), 0));
        }
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
    hold.count(v.new_value);
  }
  s.read_histogram(r.histogram);
  r.instances = n * b.iterations;
  r.reason = hold.summary("writer", "reader");
}

// The memory its views are made of must be one this device offers.
std::string why_not_here(const patterns::KernelPair& def, const device::ProbeReport& machine, int device) {
  return memory_why_not(def.memory, machine.devices.at(static_cast<std::size_t>(device)));
}

}  // namespace vmmcheck::run
