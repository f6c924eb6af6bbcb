#include "run/kit/devices.hpp"

#include <string>

#include "common/error.hpp"

namespace vmmcheck::run {

int peer_of(int device) {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 2)
    throw NotSupportedError("needs two GPUs; this machine has " + std::to_string(count) +
                            " (run on a multi-GPU machine, or with CUDA_VISIBLE_DEVICES naming two)");
  for (int other = 0; other < count; ++other) {
    if (other == device) continue;
    int there = 0, back = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&there, other, device));
    CUDA_CHECK(cudaDeviceCanAccessPeer(&back, device, other));
    if (there && back) return other;
  }
  throw NotSupportedError("needs two GPUs that can access each other; no device here can access GPU " +
                          std::to_string(device) + " as a peer (cudaDeviceCanAccessPeer)");
}

DeviceScope::DeviceScope(int device) {
  CUDA_CHECK(cudaGetDevice(&previous_));
  CUDA_CHECK(cudaSetDevice(device));
}

DeviceScope::~DeviceScope() { cudaSetDevice(previous_); }

HistogramBuffer::HistogramBuffer(cudaStream_t stream) : bins_(patterns::kMaxBins) {
  CUDA_CHECK(cudaMemsetAsync(bins_.get(), 0, bins_.bytes(), stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::array<unsigned long long, patterns::kMaxBins> HistogramBuffer::take(cudaStream_t stream) {
  std::array<unsigned long long, patterns::kMaxBins> out{};
  CUDA_CHECK(cudaMemcpyAsync(out.data(), bins_.get(), bins_.bytes(), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemsetAsync(bins_.get(), 0, bins_.bytes(), stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

void HistogramBuffer::add_into(Histogram& h, cudaStream_t stream) {
  const auto bins = take(stream);
  for (std::size_t i = 0; i < h.size() && i < bins.size(); ++i) h[i].second += bins[i];
}

DeviceWork::DeviceWork(int d) : device(d) {
  DeviceScope on(device);
  stream = Stream::create();
  done = Event::create(false);
  sink = DeviceBuffer<std::uint32_t>(1);
  counts.emplace(stream);
}

}  // namespace vmmcheck::run
