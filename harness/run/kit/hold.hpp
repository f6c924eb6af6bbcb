#pragma once
// Putting an ordering to work (docs/design.md, "Power"). Where the earlier of two operations would finish
// before the later one could start anyway -- a host call, a socket round trip between them -- a pass
// proves nothing about the ordering under test. So the earlier operation is held on the device behind a
// latch until the later one starts (its first act is to raise the latch), or until a bound passes:
//   - ordered, the later operation cannot start before the earlier one ran: the latch reaches its bound
//     and the order holds as the case defines it;
//   - with the ordering removed (the case's control, or a mutant), the later operation starts while the
//     earlier is held, and nothing but the ordering would have kept them apart.
// The latch is two words of host-mapped memory, so another device or another process (SharedHostPage)
// can raise it; each repetition uses a token of its own, so a late raise from an earlier one is ignored.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "common/unique_fd.hpp"

namespace vmmcheck::run {

// How long an earlier operation waits for the later one. In one process (one device or two) an unordered
// later operation starts within microseconds; another process must first be given the GPU, which time-
// slices between the two processes' contexts.
inline constexpr std::chrono::microseconds kHoldInProcess{200};
inline constexpr std::chrono::milliseconds kHoldAcrossProcesses{50};

class Hold {
 public:
  // `latch`: two host-mapped words (the session's, or a SharedHostPage's); `bound`: the longest the
  // earlier operation waits for the later one.
  Hold(std::uint32_t* latch, std::chrono::nanoseconds bound) : latch_(latch), bound_(bound) {}

  // Ahead of the earlier operation on `stream`: wait for `token`, or the bound, then `then_ns` more.
  void before_earlier(cudaStream_t stream, std::uint32_t token, std::uint64_t then_ns = 0);
  // Ahead of the later operation on `stream`: raise the latch with `token`.
  void before_later(cudaStream_t stream, std::uint32_t token) const;
  // Once the earlier operation has completed: whether the later one had started while it was held.
  bool raised(std::uint32_t token) const;

  // What the repetitions so far did, for a case's reason: "the reader began during the hold on the
  // writer in 0 of 4 repetitions (else the hold ran out after 200 us)"; count() after each repetition.
  void count(std::uint32_t token);
  std::string summary(const std::string& earlier, const std::string& later) const;

 private:
  std::uint32_t* latch_;
  std::chrono::nanoseconds bound_;
  std::uint32_t repetitions_ = 0, started_while_held_ = 0;
};

// A page of host memory that two processes share (a memfd mapped in each, registered with CUDA in each):
// a latch that a kernel in one process raises and a kernel in the other waits on.
class SharedHostPage {
 public:
  static SharedHostPage create();      // a new page; fd() is sent to the other process
  static SharedHostPage attach(UniqueFd fd);  // the page the other process created
  SharedHostPage(SharedHostPage&& o) noexcept;
  SharedHostPage& operator=(SharedHostPage&& o) noexcept;
  SharedHostPage(const SharedHostPage&) = delete;
  SharedHostPage& operator=(const SharedHostPage&) = delete;
  ~SharedHostPage();

  std::uint32_t* words() const { return static_cast<std::uint32_t*>(memory_); }  // host and device (UVA)
  int fd() const { return fd_.get(); }

 private:
  SharedHostPage() = default;
  void release() noexcept;  // unregister, then unmap; the descriptor closes with fd_
  UniqueFd fd_;
  void* memory_ = nullptr;
  bool registered_ = false;
};

}  // namespace vmmcheck::run
