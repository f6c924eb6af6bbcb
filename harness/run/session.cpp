#include "run/session.hpp"

#include <chrono>
#include <stdexcept>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "model/patterns.hpp"
#include "outcomes.hpp"
#include "run/device_fault.hpp"

namespace vmmcheck::run {
namespace {

constexpr int kStreams = 3;
constexpr int kEvents = 4;
constexpr std::uint32_t kScratchWords = 1u << 20;

}  // namespace

ViewId view_of(const std::string& token) {
  if (token == "same") return ViewId::A;
  if (token == "alias") return ViewId::B;
  if (token == "offset") return ViewId::Offset;
  throw std::invalid_argument("unknown view '" + token + "'");
}

std::uint64_t case_seed(const Budget& b, const std::string& case_name, std::uint64_t iteration) {
  std::uint64_t h = 1469598103934665603ull ^ b.seed;  // FNV-1a over the name, then a mix
  for (unsigned char ch : case_name) h = (h ^ ch) * 1099511628211ull;
  h ^= iteration + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 29);
}

GpuSession::GpuSession(int device, const Budget& budget) : device_(device), budget_(budget) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();
    throw NotSupportedError(std::string("no CUDA GPU here (") +
                            (err != cudaSuccess ? cudaGetErrorName(err) : "0 devices") + ")");
  }
  if (device < 0 || device >= count)
    throw InputError("--device " + std::to_string(device) + " does not exist (" + std::to_string(count) + " device(s))");
  CUDA_CHECK(cudaSetDevice(device));
  CUDA_CHECK(cudaFree(nullptr));  // creates the primary context the driver's VMM calls use
  int vmm = 0;
  VMM_CHECK(driver().cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device));
  if (!vmm) throw NotSupportedError("device " + std::to_string(device) + " does not support virtual memory management");

  // Test region: big enough for the operation-level cases and for two words (data, flag) per resident
  // thread of the in-kernel cases (at most 2048 threads per SM).
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::uint64_t litmus_words = 2ull * 2048 * static_cast<std::uint64_t>(sms) + 1024;
  region_words_ = std::max<std::uint64_t>(budget_.op_words, litmus_words);
  // View A and view B map the allocation at the start of their ranges; the offset view maps it one
  // granularity into its range. The test region starts one granularity into the allocation.
  const std::size_t granularity = vmm::allocation_granularity(device, false);
  region_offset_ = granularity;
  alias_.emplace(device, region_offset_ + region_words_ * sizeof(std::uint32_t),
                 std::vector<vmm::ViewSpec>{{0}, {0}, {granularity}});

  histogram_ = DeviceBuffer<unsigned long long>(kernels::kMaxBins);
  CUDA_CHECK(cudaMemset(histogram_.get(), 0, histogram_.bytes()));
  scratch_ = DeviceBuffer<std::uint32_t>(kScratchWords);
  CUDA_CHECK(cudaMemset(scratch_.get(), 0, scratch_.bytes()));
  sink_ = DeviceBuffer<std::uint32_t>(1);
  plain_ = DeviceBuffer<std::uint32_t>(2 * budget_.op_words);
  host_flags_ = MappedHostBuffer<std::uint32_t>(64);
  for (int i = 0; i < kStreams; ++i) streams_.push_back(Stream::create());
  for (int i = 0; i < kEvents; ++i) events_.push_back(Event::create(true));
  kernels::preload_operation_kernels();
  CUDA_CHECK(cudaDeviceSynchronize());
}

GpuSession::~GpuSession() { cudaDeviceSynchronize(); }

std::uint32_t* GpuSession::words(ViewId v) const {
  return reinterpret_cast<std::uint32_t*>(alias_->address_of(static_cast<std::size_t>(v), region_offset_));
}

void GpuSession::read_histogram(Histogram& h) {
  unsigned long long bins[kernels::kMaxBins] = {};
  // On stream 0 (non-blocking streams do not wait for the legacy default stream), after everything.
  synchronize();
  CUDA_CHECK(cudaMemcpyAsync(bins, histogram_.get(), sizeof(bins), cudaMemcpyDeviceToHost, streams_[0]));
  CUDA_CHECK(cudaMemsetAsync(histogram_.get(), 0, histogram_.bytes(), streams_[0]));
  CUDA_CHECK(cudaStreamSynchronize(streams_[0]));
  for (std::size_t i = 0; i < h.size() && i < static_cast<std::size_t>(kernels::kMaxBins); ++i) h[i].second += bins[i];
}

kernels::Stress GpuSession::stress() const {
  kernels::Stress s;
  if (budget_.stress) {
    s.scratch = scratch_.get();
    s.scratch_words = kScratchWords;
    s.accesses = budget_.stress_accesses;
  }
  return s;
}

std::string GpuSession::wait_or_fault(int i) {
  const cudaError_t e = cudaStreamSynchronize(streams_.at(i));
  if (e == cudaSuccess) return "";
  if (is_device_fault(e)) {
    lost_ = true;
    return cudaGetErrorName(e);
  }
  CUDA_CHECK(e);
  return "";
}

void GpuSession::synchronize() {
  for (const Stream& s : streams_) CUDA_CHECK(cudaStreamSynchronize(s));
}

CaseResult GpuSession::run(const model::Case& c) {
  const auto start = std::chrono::steady_clock::now();
  CaseResult r = begin_result(c);
  if (lost_) {
    r.status = Status::Error;
    r.reason = "not run in this session: an earlier device fault ended its context";
    return r;
  }
  const model::Pattern* pattern = model::find_pattern(c.pattern);
  try {
    if (c.pattern == "same_thread") run_same_thread(*this, c, r);
    else if (c.pattern == "message_passing") run_message_passing(*this, c, r);
    else if (c.pattern == "kernel_pair") run_kernel_pair(*this, c, r);
    else if (c.pattern == "resident") run_resident(*this, c, r);
    else if (c.pattern == "access") run_access(*this, c, r);
    else if (c.pattern == "lifecycle") run_lifecycle(*this, c, r);
    else if (c.pattern == "unmap_in_use") run_unmap_in_use(*this, c, r);
    else if (c.pattern == "api") run_api(*this, c, r);
    else if (c.pattern == "planted_gpu") run_planted_gpu(*this, c, r);
    else throw std::invalid_argument("no runner for pattern '" + c.pattern + "'");
    classify(c, *pattern, r);
  } catch (const NotSupportedError& e) {
    r.status = Status::NotSupported;
    r.reason = e.what();
  } catch (const CudaError& e) {
    lost_ = lost_ || is_device_fault(e.code());
    r.status = lost_ ? Status::Crash : Status::Error;
    r.reason = lost_ ? std::string("a device fault ended the context: ") + e.what() : e.what();
  } catch (const std::exception& e) {
    r.status = Status::Error;
    r.reason = e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace vmmcheck::run
