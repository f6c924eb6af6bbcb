#include "run/kit/checked_words.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "kernels/contract.hpp"
#include "kernels/operations.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {

DeviceBuffer<std::uint32_t> poisoned(std::uint64_t words, cudaStream_t stream) {
  constexpr int kPoisonByte = 0xa5;
  DeviceBuffer<std::uint32_t> out(words);
  CUDA_CHECK(cudaMemsetAsync(out.get(), kPoisonByte, out.bytes(), stream));
  return out;
}

void fill(CUdeviceptr address, std::uint64_t words, std::uint32_t value, cudaStream_t stream) {
  kernels::launch_fill(words_at(address), words, value, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::vector<std::uint32_t> to_host(const DeviceBuffer<std::uint32_t>& out, cudaStream_t stream) {
  std::vector<std::uint32_t> host(out.count());
  CUDA_CHECK(cudaMemcpyAsync(host.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

std::vector<std::uint32_t> read_back(CUdeviceptr address, std::uint64_t words, cudaStream_t stream) {
  DeviceBuffer<std::uint32_t> out = poisoned(words, stream);
  kernels::launch_copy_words(words_at(address), out.get(), words, stream);
  return to_host(out, stream);
}

std::uint64_t matching(const std::vector<std::uint32_t>& words, std::size_t begin, std::size_t end,
                       std::uint32_t expected) {
  return static_cast<std::uint64_t>(std::count(words.begin() + begin, words.begin() + end, expected));
}

void count_words(std::uint64_t right, std::uint64_t words, CaseResult& r) {
  add_bin(r.histogram, right == words ? kCompleted : kWrong);
  if (right != words) r.reason = std::to_string(words - right) + " of " + std::to_string(words) + " words read back wrong";
}

void check_read(GpuSession& s, CUdeviceptr address, std::uint64_t words, std::uint32_t expected, cudaStream_t stream,
                const std::string& what, CaseResult& r) {
  DeviceBuffer<std::uint32_t> out = poisoned(words, stream);
  kernels::launch_copy_words(words_at(address), out.get(), words, stream);
  if (const std::string fault = s.wait_or_fault(stream); !fault.empty()) {
    add_bin(r.histogram, kFault);
    r.reason = what + " faulted: " + fault;
    return;
  }
  count_words(matching(to_host(out, stream), 0, words, expected), words, r);
}

}  // namespace vmmcheck::run
