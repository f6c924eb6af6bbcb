#pragma once
// A GPU session: the device, one alias set with three views of a single allocation, and the streams,
// buffers and flags every case reuses. Building it once per run keeps each case to its own work.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "kernels/in_kernel.hpp"
#include "model/case.hpp"
#include "run/records/budget.hpp"
#include "common/cuda_objects.hpp"
#include "run/records/result.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {

class GpuSession {
 public:
  // Throws NotSupportedError when `device` does not exist, or lacks VMM support.
  GpuSession(int device, const Budget& budget);
  ~GpuSession();

  // Runs one case with its pattern's runner and judges it. A CudaError inside the case becomes status
  // Error with its message; a device fault (a sticky error) becomes Crash, and the session is lost():
  // it can run nothing more.
  CaseResult run(const model::Case& c);
  bool lost() const { return lost_; }

  int device() const { return device_; }
  const Budget& budget() const { return budget_; }

  // --- For the pattern runners (patterns/<name>/runner.cpp) ---
  std::uint32_t* words(patterns::View v) const;  // the test region, seen through view v, in the current memory
  // Makes the alias set of `kind` the current one (made on first use; NotSupportedError where this
  // device lacks the kind). run() does it for each case from its `memory` axis.
  void use_memory(patterns::Memory kind);
  std::uint64_t region_words() const { return region_words_; }
  unsigned long long* histogram() const { return histogram_.get(); }
  void read_histogram(Histogram& h);  // adds the device histogram into h and zeroes it
  // The stress of an in-kernel launch of `shape` (all its CTAs, memory-stress ones included) under knobs
  // `p` (a litmus row's own: Budget::row_stress).
  kernels::Stress stress_for(kernels::LaunchShape shape, const StressParams& p) const;
  std::uint32_t* sink() const { return sink_.get(); }
  std::uint32_t* latch() const { return latch_.get(); }            // host-mapped, two words: run/kit/hold.hpp
  std::uint32_t* plain() const { return plain_.get(); }            // 2 x op_words of plain device memory
  std::uint32_t* flag() const { return host_flags_.get(); }        // host-mapped
  std::uint32_t* ready() const { return host_flags_.get() + 32; }  // host-mapped, another cache line

  // Streams by role; all non-blocking, so none waits for the legacy default stream.
  cudaStream_t work() const { return work_; }      // each case's own work: setup, litmus launches, the writer
  cudaStream_t second() const { return second_; }  // independent of work(): a reader ordered some other way
  cudaStream_t signal() const { return signal_; }  // the signal to a grid resident on second()
  // Events by role. Around timed in-kernel launches, a ring of kTimedInFlight pairs: launch_loop queues
  // the next launch while earlier ones run and reads a pair's time only before it reuses the pair.
  static constexpr std::size_t kTimedInFlight = 4;
  cudaEvent_t timing_start(std::uint64_t launch) const { return timing_[launch % kTimedInFlight].first; }
  cudaEvent_t timing_stop(std::uint64_t launch) const { return timing_[launch % kTimedInFlight].second; }
  cudaEvent_t handoff() const { return handoff_; }  // recorded on one stream, waited for on another

  // Waits for `stream`. Returns the error's name when a kernel faulted -- the session is lost() from
  // then on -- or "" when all went well; throws CudaError for any other failure.
  std::string wait_or_fault(cudaStream_t stream);
  void synchronize();  // every stream

 private:
  int device_;
  Budget budget_;
  bool lost_ = false;
  std::uint64_t region_words_ = 0;
  // One alias set per memory kind (patterns::Memory), each with the allocation byte where its test
  // region starts (one granularity in).
  struct Region {
    std::optional<vmm::AliasSet> alias;
    std::size_t offset = 0;
  };
  std::array<Region, 3> regions_;
  patterns::Memory memory_ = patterns::Memory::Device;
  DeviceBuffer<unsigned long long> histogram_;
  DeviceBuffer<std::uint32_t> scratch_, stress_done_, sink_, plain_;
  MappedHostBuffer<std::uint32_t> host_flags_, latch_;
  Stream work_, second_, signal_;
  std::array<std::pair<Event, Event>, kTimedInFlight> timing_;
  Event handoff_;
};

// Runs and judges a case whose pattern needs no GPU (PatternDefaults::kNeedsGpu false), in this process.
CaseResult run_without_session(const model::Case& c);

// A seeded, case-specific 64-bit value (placements and written values differ per case and iteration).
std::uint64_t case_seed(const Budget& b, const std::string& case_name, std::uint64_t iteration);

}  // namespace vmmcheck::run
