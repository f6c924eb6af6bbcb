#pragma once
// Owners of the CUDA runtime objects the runners use, on the same template as the VMM owners
// (common/unique_handle.hpp): move-only, destructors never throw.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>

#include "common/error.hpp"
#include "common/unique_handle.hpp"

namespace vmmcheck::run {

template <typename Handle, cudaError_t (*Destroy)(Handle)>
using RuntimeTraits = ReleasedBy<Handle, cudaError_t, cudaSuccess, Destroy>;

// A runtime handle owner that converts to the handle, for passing straight to the runtime API.
template <typename Handle, cudaError_t (*Destroy)(Handle)>
class Owned {
 public:
  Owned() = default;
  explicit Owned(Handle h) : owner_(h) {}
  Handle get() const noexcept { return owner_.get(); }
  operator Handle() const noexcept { return owner_.get(); }

 private:
  UniqueHandle<RuntimeTraits<Handle, Destroy>> owner_;
};

class Stream : public Owned<cudaStream_t, cudaStreamDestroy> {
 public:
  using Owned::Owned;
  static Stream create() {
    cudaStream_t s = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return Stream(s);
  }
};

class Event : public Owned<cudaEvent_t, cudaEventDestroy> {
 public:
  using Owned::Owned;
  static Event create(bool timing) {
    cudaEvent_t e = nullptr;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
    return Event(e);
  }
};

using Graph = Owned<cudaGraph_t, cudaGraphDestroy>;
using GraphExec = Owned<cudaGraphExec_t, cudaGraphExecDestroy>;

// Plain device memory (cudaMalloc), for histograms, scratch and copy buffers: never aliased.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    memory_ = Owned<void*, cudaFree>(p);
  }
  T* get() const noexcept { return static_cast<T*>(memory_.get()); }
  std::size_t count() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  Owned<void*, cudaFree> memory_;
  std::size_t count_ = 0;
};

// Pinned host memory mapped into the device's address space: flags the host and GPU both touch. Every
// device's context may use it (portable): a latch one GPU waits on and another raises.
template <typename T>
class MappedHostBuffer {
 public:
  MappedHostBuffer() = default;
  explicit MappedHostBuffer(std::size_t count) {
    void* p = nullptr;
    CUDA_CHECK(cudaHostAlloc(&p, count * sizeof(T), cudaHostAllocMapped | cudaHostAllocPortable));
    std::memset(p, 0, count * sizeof(T));
    memory_ = Owned<void*, cudaFreeHost>(p);
  }
  T* get() const noexcept { return static_cast<T*>(memory_.get()); }  // valid on host and device (UVA)

 private:
  Owned<void*, cudaFreeHost> memory_;
};

}  // namespace vmmcheck::run
