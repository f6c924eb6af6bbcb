#pragma once
// The memory operations litmus kernels are built from, one function per PTX flavour. libcu++ provides
// each: cuda::ptx for weak and non-coherent loads, weak stores and fence.proxy.alias; cuda::atomic_ref
// for relaxed, acquire and release at a scope.
#include <cuda/atomic>
#include <cuda/ptx>

#include <cstdint>

#include "vocabulary/axes.hpp"

namespace vmmcheck::kernels::device {

using patterns::Load;
using patterns::Scope;

template <Load L>
__device__ __forceinline__ std::uint32_t load(const std::uint32_t* p) {
  if constexpr (L == Load::Weak) {
    return cuda::ptx::ld(cuda::ptx::space_global, p);  // ld.global.b32
  } else if constexpr (L == Load::Volatile) {
    return *reinterpret_cast<const volatile std::uint32_t*>(p);  // ld.volatile.global.u32
  } else if constexpr (L == Load::RelaxedGpu) {
    return cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(*const_cast<std::uint32_t*>(p))
        .load(cuda::memory_order_relaxed);  // ld.relaxed.gpu
  } else if constexpr (L == Load::AcquireGpu) {
    return cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(*const_cast<std::uint32_t*>(p))
        .load(cuda::memory_order_acquire);  // ld.acquire.gpu
  } else {
    return cuda::ptx::ld_nc(cuda::ptx::space_global, p);  // ld.global.nc.b32
  }
}

__device__ __forceinline__ void store_weak(std::uint32_t* p, std::uint32_t v) {
  cuda::ptx::st(cuda::ptx::space_global, p, v);  // st.global.b32
}

// One st.global.v4.b32 of `v` to the 16 bytes at p (16-byte aligned): the four words leave in one
// instruction, so nothing stands between them and what the thread issues next.
__device__ __forceinline__ void store_weak4(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.global.v4.b32 [%0], {%1, %1, %1, %1};" ::"l"(p), "r"(v) : "memory");
}

template <Scope S>
struct ScopeOf;
template <>
struct ScopeOf<Scope::Cta> {
  static constexpr cuda::thread_scope value = cuda::thread_scope_block;
};
template <>
struct ScopeOf<Scope::Gpu> {
  static constexpr cuda::thread_scope value = cuda::thread_scope_device;
};
template <>
struct ScopeOf<Scope::Sys> {
  static constexpr cuda::thread_scope value = cuda::thread_scope_system;
};

template <Scope S>
__device__ __forceinline__ void store_release(std::uint32_t* p, std::uint32_t v) {
  cuda::atomic_ref<std::uint32_t, ScopeOf<S>::value>(*p).store(v, cuda::memory_order_release);
}

template <Scope S>
__device__ __forceinline__ std::uint32_t load_acquire(std::uint32_t* p) {
  return cuda::atomic_ref<std::uint32_t, ScopeOf<S>::value>(*p).load(cuda::memory_order_acquire);
}

// How message passing publishes and observes its flag (patterns::FlagSync): release/acquire, or the same
// accesses relaxed (the control, with no synchronisation).
template <Scope S, patterns::FlagSync F>
__device__ __forceinline__ void publish(std::uint32_t* flag, std::uint32_t v) {
  constexpr auto order = F == patterns::FlagSync::ReleaseAcquire ? cuda::memory_order_release : cuda::memory_order_relaxed;
  cuda::atomic_ref<std::uint32_t, ScopeOf<S>::value>(*flag).store(v, order);
}

template <Scope S, patterns::FlagSync F>
__device__ __forceinline__ std::uint32_t observe(std::uint32_t* flag) {
  constexpr auto order = F == patterns::FlagSync::ReleaseAcquire ? cuda::memory_order_acquire : cuda::memory_order_relaxed;
  return cuda::atomic_ref<std::uint32_t, ScopeOf<S>::value>(*flag).load(order);
}

// fence.proxy.alias: orders this thread's accesses made through different virtual aliases.
__device__ __forceinline__ void proxy_alias_fence() { cuda::ptx::fence_proxy_alias(); }

__device__ __forceinline__ std::uint64_t now_ns() { return cuda::ptx::get_sreg_globaltimer(); }

}  // namespace vmmcheck::kernels::device
