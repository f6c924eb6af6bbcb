#pragma once
// Move-only owners for the CUDA runtime objects the executor uses. Destructors never throw.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <utility>

#include "common/error.hpp"

namespace vmmcheck::run {

template <typename Handle, cudaError_t (*Destroy)(Handle)>
class Owned {
 public:
  Owned() = default;
  explicit Owned(Handle h) : h_(h) {}
  ~Owned() {
    if (h_) Destroy(h_);
  }
  Owned(Owned&& o) noexcept : h_(std::exchange(o.h_, Handle{})) {}
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      if (h_) Destroy(h_);
      h_ = std::exchange(o.h_, Handle{});
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Handle get() const noexcept { return h_; }
  operator Handle() const noexcept { return h_; }

 private:
  Handle h_{};
};

class Stream : public Owned<cudaStream_t, cudaStreamDestroy> {
 public:
  static Stream create() {
    cudaStream_t s = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return Stream(s);
  }
  using Owned::Owned;
};

class Event : public Owned<cudaEvent_t, cudaEventDestroy> {
 public:
  static Event create(bool timing) {
    cudaEvent_t e = nullptr;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
    return Event(e);
  }
  using Owned::Owned;
};

class GraphExec : public Owned<cudaGraphExec_t, cudaGraphExecDestroy> {
 public:
  using Owned::Owned;
};

class Graph : public Owned<cudaGraph_t, cudaGraphDestroy> {
 public:
  using Owned::Owned;
};

// Plain device memory (cudaMalloc), for histograms, scratch and copy buffers: never aliased.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    p_.reset(p);
  }
  T* get() const noexcept { return static_cast<T*>(p_.get()); }
  std::size_t count() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  struct Free {
    void operator()(void* p) const noexcept { cudaFree(p); }
  };
  std::unique_ptr<void, Free> p_;
  std::size_t count_ = 0;
};

// Pinned host memory mapped into the device's address space: flags the host and GPU both touch.
template <typename T>
class MappedHostBuffer {
 public:
  MappedHostBuffer() = default;
  explicit MappedHostBuffer(std::size_t count) {
    void* p = nullptr;
    CUDA_CHECK(cudaHostAlloc(&p, count * sizeof(T), cudaHostAllocMapped));
    p_.reset(p);
  }
  T* get() const noexcept { return static_cast<T*>(p_.get()); }  // valid on host and device (UVA)

 private:
  struct Free {
    void operator()(void* p) const noexcept { cudaFreeHost(p); }
  };
  std::unique_ptr<void, Free> p_;
};

}  // namespace vmmcheck::run
