#pragma once
// What the runners that reach past the session's one device and process share (peer.*, ipc.*, fabric.*):
// the second GPU, a scope that makes a device current, and a histogram counted on a device of one's choice.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <optional>

#include "vocabulary/pattern.hpp"
#include "common/cuda_objects.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::run {

// The GPU a peer case reaches `device` from: the first other device that can access it and that it
// can access (cudaDeviceCanAccessPeer both ways). Throws NotSupportedError saying what is missing.
int peer_of(int device);

// Makes `device` current for the scope; the previous device is current again after it.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

// kMaxBins zeroed counters on the current device, for kernels that count there (launch_count, ...).
class HistogramBuffer {
 public:
  explicit HistogramBuffer(cudaStream_t stream);
  unsigned long long* get() const { return bins_.get(); }
  // The counts, once the work queued on `stream` is done; the counters are zero again afterwards.
  std::array<unsigned long long, patterns::kMaxBins> take(cudaStream_t stream);
  // take(), added into `h` in bin order.
  void add_into(Histogram& h, cudaStream_t stream);

 private:
  DeviceBuffer<unsigned long long> bins_;
};

// What a case keeps on a device other than its session's (peer.*, multicast.*): a stream, an event, a
// sink for warming loads and counters, all made with that device current -- which also makes its
// context, before any mapping is granted to it. Work queued on the stream makes the device current
// around it (DeviceScope).
struct DeviceWork {
  explicit DeviceWork(int device);
  int device;
  Stream stream;
  Event done;  // recorded on `stream` where another stream waits for it
  DeviceBuffer<std::uint32_t> sink;
  std::optional<HistogramBuffer> counts;
};

}  // namespace vmmcheck::run
