#include "run/kit/session.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <type_traits>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "run/kit/device_fault.hpp"
#include "run/kit/mutants.hpp"
#include "vmm/memory_kind.hpp"

namespace vmmcheck::run {
namespace {

constexpr std::uint32_t kScratchWords = 1u << 20;

// The alias set maps its views in the order of patterns::View, so a view's index is its enum value.
const std::vector<vmm::ViewSpec> view_specs(std::size_t granularity) {
  static_assert(static_cast<int>(patterns::View::Same) == 0 && static_cast<int>(patterns::View::Alias) == 1 &&
                static_cast<int>(patterns::View::Offset) == 2);
  // View A and view B map the allocation at the start of their ranges; the offset view one granularity in.
  return {{0}, {0}, {granularity}};
}

}  // namespace

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
  use_memory(patterns::Memory::Device);

  histogram_ = DeviceBuffer<unsigned long long>(patterns::kMaxBins);
  CUDA_CHECK(cudaMemset(histogram_.get(), 0, histogram_.bytes()));
  scratch_ = DeviceBuffer<std::uint32_t>(kScratchWords);
  CUDA_CHECK(cudaMemset(scratch_.get(), 0, scratch_.bytes()));
  stress_done_ = DeviceBuffer<std::uint32_t>(1);
  sink_ = DeviceBuffer<std::uint32_t>(1);
  latch_ = MappedHostBuffer<std::uint32_t>(2);
  plain_ = DeviceBuffer<std::uint32_t>(2 * budget_.op_words);
  host_flags_ = MappedHostBuffer<std::uint32_t>(64);
  work_ = Stream::create();
  second_ = Stream::create();
  signal_ = Stream::create();
  for (auto& [start, stop] : timing_) start = Event::create(true), stop = Event::create(true);
  handoff_ = Event::create(false);
  kernels::preload_operation_kernels();
  CUDA_CHECK(cudaDeviceSynchronize());
}

GpuSession::~GpuSession() { cudaDeviceSynchronize(); }

std::uint32_t* GpuSession::words(patterns::View v) const {
  const Region& r = regions_[static_cast<std::size_t>(memory_)];
  return reinterpret_cast<std::uint32_t*>(r.alias->address_of(static_cast<std::size_t>(v), r.offset));
}

void GpuSession::use_memory(patterns::Memory kind) {
  Region& r = regions_[static_cast<std::size_t>(kind)];
  if (!r.alias) {
    // The test region starts one granularity into the allocation.
    const vmm::MemoryKind k = vmm::memory_kind(kind, device_);
    r.alias.emplace(vmm::alias_set_of(kind, k, device_, k.granularity + region_words_ * sizeof(std::uint32_t),
                                      view_specs(k.granularity)));
    r.offset = k.granularity;
  }
  memory_ = kind;
}

void GpuSession::read_histogram(Histogram& h) {
  unsigned long long bins[patterns::kMaxBins] = {};
  // On work() (non-blocking streams do not wait for the legacy default stream), after everything.
  synchronize();
  CUDA_CHECK(cudaMemcpyAsync(bins, histogram_.get(), sizeof(bins), cudaMemcpyDeviceToHost, work()));
  CUDA_CHECK(cudaMemsetAsync(histogram_.get(), 0, histogram_.bytes(), work()));
  CUDA_CHECK(cudaStreamSynchronize(work()));
  for (std::size_t i = 0; i < h.size() && i < static_cast<std::size_t>(patterns::kMaxBins); ++i) h[i].second += bins[i];
}

kernels::Stress GpuSession::stress_for(kernels::LaunchShape shape, const StressParams& p) const {
  kernels::Stress s;
  if (!p.any()) return s;
  s.scratch = scratch_.get();
  s.lines = std::min<std::uint32_t>(p.lines, kScratchWords / s.line_words);
  s.pattern = p.pattern;
  s.pre_accesses = p.pre_accesses;
  s.barrier = p.barrier;
  // At least two testing CTAs (message passing between CTAs needs them), whatever the percentage.
  const std::uint32_t blocks = static_cast<std::uint32_t>(shape.blocks);
  s.stress_blocks = blocks > 2 ? std::min(blocks * p.stress_blocks_percent / 100, blocks - 2) : 0;
  s.stress_accesses = p.stress_accesses;
  s.done = stress_done_.get();
  return s;
}

std::string GpuSession::wait_or_fault(cudaStream_t stream) {
  const cudaError_t e = cudaStreamSynchronize(stream);
  if (e == cudaSuccess) return "";
  if (is_device_fault(e)) {
    lost_ = true;
    return cudaGetErrorName(e);
  }
  CUDA_CHECK(e);
  return "";
}

void GpuSession::synchronize() {
  for (cudaStream_t s : {work(), second(), signal()}) CUDA_CHECK(cudaStreamSynchronize(s));
}

static_assert(patterns::has_memory_axis<patterns::KernelPair> && !patterns::has_memory_axis<patterns::Access>);

CaseResult GpuSession::run(const model::Case& c) {
  const auto start = std::chrono::steady_clock::now();
  CaseResult r = begin_result(c);
  if (lost_) {
    r.status = Status::Error;
    r.reason = "not run in this session: an earlier device fault ended its context";
    return r;
  }
  // A control that is the case itself runs with its mechanism's mutant switched on.
  const MutantScope mutant(c.mutant);
  try {
    // A runner that threw after its kernels counted leaves counts behind: every case starts from zero.
    CUDA_CHECK(cudaMemsetAsync(histogram_.get(), 0, histogram_.bytes(), work()));
    CUDA_CHECK(cudaStreamSynchronize(work()));
    // The runner of the case's pattern, found by the type of its definition (patterns/registry.hpp): a
    // pattern without one does not compile.
    std::visit(
        [&](const auto& def) {
          using Pattern = std::decay_t<decltype(def)>;
          // The alias families take the memory their case names; every other pattern device memory.
          if constexpr (patterns::has_memory_axis<Pattern>) use_memory(def.memory);
          else use_memory(patterns::Memory::Device);
          if constexpr (Pattern::kNeedsGpu) run_pattern(*this, def, c, r);
          else throw std::logic_error("pattern '" + std::string(Pattern::kName) + "' runs without a GPU session");
        },
        c.def);
    classify(c, r);
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

CaseResult run_without_session(const model::Case& c) {
  CaseResult r = begin_result(c);
  const MutantScope mutant(c.mutant);
  std::visit(
      [&](const auto& def) {
        using Pattern = std::decay_t<decltype(def)>;
        if constexpr (!Pattern::kNeedsGpu) run_pattern(def, c, r);
        else throw std::logic_error("pattern '" + std::string(Pattern::kName) + "' needs a GPU session");
      },
      c.def);
  classify(c, r);
  return r;
}

}  // namespace vmmcheck::run
