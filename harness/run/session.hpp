#pragma once
// A GPU session: the device, one alias set with three views of a single allocation, and the streams,
// buffers and flags every case reuses. Building it once per run keeps each case to its own work.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "litmus.hpp"
#include "model/case.hpp"
#include "run/budget.hpp"
#include "run/cuda_objects.hpp"
#include "run/result.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {

// The views every alias case chooses from (axis tokens "same", "alias", "offset").
enum class ViewId { A = 0, B = 1, Offset = 2 };
ViewId view_of(const std::string& token);

class GpuSession {
 public:
  // Throws NotSupportedError when `device` does not exist, or lacks VMM support.
  GpuSession(int device, const Budget& budget);
  ~GpuSession();

  // Runs one case and judges it. A CudaError inside the case becomes status Error with its message; a
  // device fault (a sticky error) becomes Crash, and the session is lost(): it can run nothing more.
  CaseResult run(const model::Case& c);
  bool lost() const { return lost_; }

  int device() const { return device_; }
  const Budget& budget() const { return budget_; }

  // Used by the pattern runners (in_kernel_cases.cpp, operation_cases.cpp).
  std::uint32_t* words(ViewId v) const;     // the test region, seen through view v
  std::uint64_t region_words() const { return region_words_; }
  unsigned long long* histogram() const { return histogram_.get(); }
  void read_histogram(Histogram& h);        // adds the device histogram into h and zeroes it
  kernels::Stress stress() const;
  std::uint32_t* sink() const { return sink_.get(); }
  std::uint32_t* plain() const { return plain_.get(); }          // 2 x op_words of plain device memory
  std::uint32_t* flag() const { return host_flags_.get(); }      // host-mapped
  std::uint32_t* ready() const { return host_flags_.get() + 32; }  // host-mapped, another cache line
  cudaStream_t stream(int i) const { return streams_.at(i); }
  // Waits for stream i. Returns the error's name when a kernel faulted -- the session is lost() from
  // then on -- or "" when all went well; throws CudaError for any other failure.
  std::string wait_or_fault(int i);
  cudaEvent_t event(int i) const { return events_.at(i); }
  void synchronize();

 private:
  int device_;
  Budget budget_;
  bool lost_ = false;
  std::uint64_t region_words_ = 0;
  std::size_t region_offset_ = 0;  // allocation byte where the test region starts
  std::optional<vmm::AliasSet> alias_;
  DeviceBuffer<unsigned long long> histogram_;
  DeviceBuffer<std::uint32_t> scratch_, sink_, plain_;
  MappedHostBuffer<std::uint32_t> host_flags_;
  std::vector<Stream> streams_;
  std::vector<Event> events_;
};

// One runner per pattern: each fills r.histogram, r.instances and r.gpu_seconds.
void run_same_thread(GpuSession& s, const model::Case& c, CaseResult& r);
void run_message_passing(GpuSession& s, const model::Case& c, CaseResult& r);
void run_kernel_pair(GpuSession& s, const model::Case& c, CaseResult& r);
void run_resident(GpuSession& s, const model::Case& c, CaseResult& r);
void run_access(GpuSession& s, const model::Case& c, CaseResult& r);
void run_lifecycle(GpuSession& s, const model::Case& c, CaseResult& r);
void run_unmap_in_use(GpuSession& s, const model::Case& c, CaseResult& r);
void run_api(GpuSession& s, const model::Case& c, CaseResult& r);
void run_planted_gpu(GpuSession& s, const model::Case& c, CaseResult& r);
// The one pattern that needs no GPU (Pattern::needs_gpu false): the executor runs it, without a session.
void run_planted_host(const model::Case& c, CaseResult& r);

// A seeded, case-specific 64-bit value (placements and written values differ per case and iteration).
std::uint64_t case_seed(const Budget& b, const std::string& case_name, std::uint64_t iteration);

}  // namespace vmmcheck::run
