#include "run/kit/operations.hpp"

#include "common/driver.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "vocabulary/kernel_orders.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/mutants.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace vmmcheck::run {

Values values_for(const Budget& b, const std::string& case_name, std::uint32_t iteration) {
  const std::uint64_t h = case_seed(b, case_name, iteration);
  Values v{static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32) & ~1u};
  if (v.new_value == v.old_value) v.new_value ^= 0x80000000u;
  return v;
}

void write_words(patterns::WriterOp op, std::uint32_t* target, const std::uint32_t* copy_source, std::uint64_t words,
                 std::uint32_t value, cudaStream_t stream) {
  switch (op) {
    case patterns::WriterOp::Kernel: kernels::launch_fill(target, words, value, stream); break;
    case patterns::WriterOp::Memcpy:
      CUDA_CHECK(cudaMemcpyAsync(target, copy_source, words * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
      break;
    case patterns::WriterOp::Memset:
      VMM_CHECK(driver().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(target), value, words, stream));
      break;
  }
}

void read_after(patterns::Order order, cudaStream_t writer, cudaStream_t other, cudaEvent_t handoff,
                const std::function<void(cudaStream_t)>& read) {
  switch (order) {
    case patterns::Order::Stream: read(mutated(Mutant::NoStreamOrder) ? other : writer); return;
    case patterns::Order::Event:
      CUDA_CHECK(cudaEventRecord(handoff, writer));
      if (!mutated(Mutant::NoEventWait)) CUDA_CHECK(cudaStreamWaitEvent(other, handoff, 0));
      read(other);
      return;
    case patterns::Order::Host:
      if (!mutated(Mutant::NoHostSync)) CUDA_CHECK(cudaStreamSynchronize(writer));
      read(other);
      return;
    default: throw std::logic_error("read_after: a graph edge or no order is not one operation after another");
  }
}

void run_in_order(GpuSession& s, patterns::TextureOrder order, const ProxySides& sides, Hold& hold, std::uint32_t token) {
  using Order = patterns::TextureOrder;
  switch (order) {
    case Order::Stream:
    case Order::Event:
    case Order::Host:
      hold.before_earlier(s.work(), token);
      sides.write(s.work());
      read_after(patterns::kernel_order(order), s.work(), s.second(), s.handoff(), [&](cudaStream_t st) {
        hold.before_later(st, token);
        sides.read(st);
      });
      return;
    case Order::Resident: {
      const int blocks = kernels::resident_blocks();
      volatile std::uint32_t* ready = s.ready();
      *ready = 0;
      __atomic_store_n(s.flag(), 0u, __ATOMIC_RELEASE);
      const double timeout_ms = s.budget().resident_timeout_ms;
      sides.resident_read(blocks, static_cast<std::uint64_t>(timeout_ms * 1e6), s.second());
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(timeout_ms);
      while (*ready < static_cast<std::uint32_t>(blocks) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
      if (*ready < static_cast<std::uint32_t>(blocks))
        throw std::runtime_error("the reader grid did not become resident before the write");
      sides.write(s.work());
      CUDA_CHECK(cudaStreamSynchronize(s.work()));
      __atomic_store_n(s.flag(), 1u, __ATOMIC_RELEASE);
      return;
    }
    case Order::OneKernel: sides.one_kernel(s.work()); return;
  }
}

void reset_region(GpuSession& s, std::uint64_t words, std::uint32_t value) {
  fill(reinterpret_cast<CUdeviceptr>(s.words(patterns::View::Same)), words, value, s.work());
}

}  // namespace vmmcheck::run
