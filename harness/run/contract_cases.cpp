// Runners for the VMM-contract families: access rights (access.*), the lifecycle of handles, mappings
// and ranges (lifecycle.*), and unmapping memory a kernel still uses (lifecycle.unmap.*). Each builds
// its own allocations with the RAII owners, so a case leaves nothing behind -- even one that faults.
#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "common/driver.hpp"  // driver_error_name
#include "common/error.hpp"
#include "contract.hpp"
#include "litmus.hpp"
#include "run/session.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {
namespace {

using vmm::Access;
using vmm::AccessGrant;
using vmm::AddressRange;
using vmm::Mapping;
using vmm::PhysicalAllocation;

constexpr std::uint32_t kOld = 0x01d01d01u;   // what the memory holds before the access under test
constexpr std::uint32_t kNew = 0x0e1e1e1eu;   // what the access under test writes
constexpr std::uint32_t kFirst = 0x0f1f1f1fu;  // what the first kernel writes (read_after_rw)
constexpr int kPoisonByte = 0xa5;             // fills output buffers first: a kernel that wrote nothing shows

// A plain output buffer of `words` words, every byte kPoisonByte (cudaMalloc may hand back memory that
// already holds the value a check expects).
DeviceBuffer<std::uint32_t> poisoned(std::uint64_t words) {
  DeviceBuffer<std::uint32_t> out(words);
  CUDA_CHECK(cudaMemset(out.get(), kPoisonByte, out.bytes()));
  return out;
}

std::uint32_t* words_at(CUdeviceptr address) { return reinterpret_cast<std::uint32_t*>(address); }

void fill(CUdeviceptr address, std::uint64_t words, std::uint32_t value, cudaStream_t stream) {
  kernels::launch_fill(words_at(address), words, value, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

// The buffer's words, on the host, once the work queued on `stream` is done.
std::vector<std::uint32_t> to_host(const DeviceBuffer<std::uint32_t>& out, cudaStream_t stream) {
  std::vector<std::uint32_t> host(out.count());
  CUDA_CHECK(cudaMemcpyAsync(host.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

// Reads `words` words through `address` with a kernel and returns them.
std::vector<std::uint32_t> read_back(CUdeviceptr address, std::uint64_t words, cudaStream_t stream) {
  DeviceBuffer<std::uint32_t> out = poisoned(words);
  kernels::launch_copy_words(words_at(address), out.get(), words, stream);
  return to_host(out, stream);
}

// How many of words[begin, end) equal `expected`.
std::uint64_t matching(const std::vector<std::uint32_t>& words, std::size_t begin, std::size_t end,
                       std::uint32_t expected) {
  return static_cast<std::uint64_t>(std::count(words.begin() + begin, words.begin() + end, expected));
}

// Counts words[begin, end) as intact (== expected) or corrupt into the case's histogram.
void tally(const std::vector<std::uint32_t>& words, std::size_t begin, std::size_t end, std::uint32_t expected,
           CaseResult& r) {
  const std::uint64_t intact = matching(words, begin, end, expected);
  add_outcome(r.histogram, "intact", intact);
  add_outcome(r.histogram, "corrupt", (end - begin) - intact);
  r.instances += end - begin;
}

}  // namespace

// access.<grant>.<op>: a kernel reads or writes one granule through a mapping whose access rights the
// case sets; a second, read-write mapping of the same memory initialises it and checks writes.
void run_access(GpuSession& s, const model::Case& c, CaseResult& r) {
  const int dev = s.device();
  const std::string& grant = c.axis("grant");
  const bool write = c.axis("op") == "write";
  const cudaStream_t stream = s.stream(0);
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::uint64_t words = g / sizeof(std::uint32_t);

  // Two allocations side by side in one range, so a grant can cover the first and not the second.
  // Declared in the reverse of the release order: mappings go first, then handles, then ranges.
  AddressRange check_range(2 * g, g), test_range(2 * g, g);
  PhysicalAllocation first(dev, g), second(dev, g);
  Mapping check_lo(check_range.base(), g, first, 0), check_hi(check_range.base() + g, g, second, 0);
  AccessGrant check_grant(check_range.base(), 2 * g, dev, Access::ReadWrite);
  Mapping test_lo(test_range.base(), g, first, 0), test_hi(test_range.base() + g, g, second, 0);
  fill(check_range.base(), 2 * words, kOld, stream);

  std::uint32_t expected_read = kOld;
  if (grant == "read") AccessGrant(test_range.base(), 2 * g, dev, Access::Read);
  if (grant == "readwrite") AccessGrant(test_range.base(), 2 * g, dev, Access::ReadWrite);
  if (grant == "subrange_inside" || grant == "subrange_outside") AccessGrant(test_lo, dev, Access::ReadWrite);
  if (grant == "read_after_rw") {
    AccessGrant(test_range.base(), 2 * g, dev, Access::ReadWrite);
    fill(test_range.base(), words, kFirst, stream);  // the first kernel, under read-write access
    expected_read = kFirst;
    AccessGrant(test_range.base(), 2 * g, dev, Access::Read);
  }
  const CUdeviceptr target = test_range.base() + (grant == "subrange_outside" ? g : 0);
  const std::size_t target_word = grant == "subrange_outside" ? words : 0;

  DeviceBuffer<std::uint32_t> out = poisoned(words);
  if (write) kernels::launch_fill(words_at(target), words, kNew, stream);
  else kernels::launch_copy_words(words_at(target), out.get(), words, stream);
  r.instances = 1;
  if (const std::string fault = s.wait_or_fault(0); !fault.empty()) {
    add_outcome(r.histogram, "fault");
    r.reason = "the access faulted: " + fault;
    return;
  }
  const std::vector<std::uint32_t> seen =
      write ? read_back(check_range.base() + target_word * sizeof(std::uint32_t), words, stream) : to_host(out, stream);
  const std::uint64_t right = matching(seen, 0, words, write ? kNew : expected_read);
  add_outcome(r.histogram, right == words ? "completed" : "wrong");
  if (right != words)
    r.reason = std::to_string(words - right) + " of " + std::to_string(words) + " words " +
               (write ? "did not take the write" : "read back wrong");
}

// lifecycle.<scenario>: data belongs to the physical allocation, not to an address. Every word checked
// is one instance.
void run_lifecycle(GpuSession& s, const model::Case& c, CaseResult& r) {
  const int dev = s.device();
  const std::string& scenario = c.axis("scenario");
  const cudaStream_t stream = s.stream(0);
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::uint64_t words = g / sizeof(std::uint32_t);

  if (scenario == "release_before_unmap") {
    // Guide 4.17.3.5 / cuMemRelease: the handle may go before the mapping; the memory stays until unmapped.
    AddressRange range(g, g);
    PhysicalAllocation memory(dev, g);
    Mapping view(range.base(), g, memory, 0);
    AccessGrant grant(view, dev, Access::ReadWrite);
    fill(view.address(), words, kNew, stream);
    VMM_CHECK(memory.release());
    // Pressure: fresh allocations, written with another value, would take the memory if the release
    // had freed it while it was still mapped.
    AddressRange other_range(4 * g, g);
    PhysicalAllocation other(dev, 4 * g);
    Mapping other_view(other_range.base(), 4 * g, other, 0);
    AccessGrant other_grant(other_view, dev, Access::ReadWrite);
    fill(other_view.address(), 4 * words, kOld, stream);
    tally(read_back(view.address(), words, stream), 0, words, kNew, r);
  } else if (scenario == "remap_same_va" || scenario == "remap_new_va") {
    AddressRange range(g, g), other(g, g);
    PhysicalAllocation memory(dev, g);
    {
      Mapping view(range.base(), g, memory, 0);
      AccessGrant grant(view, dev, Access::ReadWrite);
      fill(view.address(), words, kNew, stream);
    }  // unmapped here: the range is a bare reservation again, the memory is still held by the handle
    const CUdeviceptr at = scenario == "remap_same_va" ? range.base() : other.base();
    Mapping again(at, g, memory, 0);
    AccessGrant grant(again, dev, Access::ReadWrite);  // a new mapping needs its access granted again
    tally(read_back(again.address(), words, stream), 0, words, kNew, r);
  } else if (scenario == "seam") {
    // Two allocations back to back in one range, granted by one call: one kernel reads across the seam.
    AddressRange joined(2 * g, g), lo_range(g, g), hi_range(g, g);
    PhysicalAllocation lo(dev, g), hi(dev, g);
    Mapping joined_lo(joined.base(), g, lo, 0), joined_hi(joined.base() + g, g, hi, 0);
    AccessGrant joined_grant(joined.base(), 2 * g, dev, Access::ReadWrite);
    Mapping lo_view(lo_range.base(), g, lo, 0), hi_view(hi_range.base(), g, hi, 0);
    AccessGrant lo_grant(lo_view, dev, Access::ReadWrite), hi_grant(hi_view, dev, Access::ReadWrite);
    fill(lo_view.address(), words, kOld, stream);
    fill(hi_view.address(), words, kNew, stream);
    const std::vector<std::uint32_t> seen = read_back(joined.base(), 2 * words, stream);
    tally(seen, 0, words, kOld, r);
    tally(seen, words, 2 * words, kNew, r);
  } else if (scenario == "grow") {
    // A growable buffer: reserve for the largest size, map and grant chunk after chunk, and check
    // after each step that every earlier chunk kept its data.
    constexpr std::size_t kChunks = 4;
    AddressRange range(2 * kChunks * g, g);
    std::vector<PhysicalAllocation> chunks;
    std::vector<Mapping> mappings;
    for (std::size_t k = 0; k < kChunks; ++k) {
      chunks.emplace_back(dev, g);
      mappings.emplace_back(range.base() + k * g, g, chunks.back(), 0);
      AccessGrant grant(mappings.back(), dev, Access::ReadWrite);
      fill(mappings.back().address(), words, kNew + static_cast<std::uint32_t>(k), stream);
      const std::vector<std::uint32_t> seen = read_back(range.base(), (k + 1) * words, stream);
      for (std::size_t j = 0; j <= k; ++j) tally(seen, j * words, (j + 1) * words, kNew + static_cast<std::uint32_t>(j), r);
    }
  } else {
    throw std::invalid_argument("no lifecycle scenario '" + scenario + "'");
  }
}

// lifecycle.unmap.<kernel>: cuMemUnmap while a kernel that uses the mapping is queued behind a gate, or
// running. Nothing in the guide or the driver API defines the outcome: the case records it.
void run_unmap_in_use(GpuSession& s, const model::Case& c, CaseResult& r) {
  using clock = std::chrono::steady_clock;
  constexpr std::uint64_t kHoldNs = 1'000'000'000;  // how long the gate or the reader waits for the host
  const int dev = s.device();
  const bool running = c.axis("kernel") == "running";
  const cudaStream_t stream = s.stream(0);
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::uint64_t words = g / sizeof(std::uint32_t);

  AddressRange range(g, g);
  PhysicalAllocation memory(dev, g);
  Mapping view(range.base(), g, memory, 0);
  AccessGrant grant(view, dev, Access::ReadWrite);
  fill(view.address(), words, kNew, stream);
  DeviceBuffer<std::uint32_t> out = poisoned(words);
  std::uint32_t* flag = s.flag();
  std::uint32_t* ready = s.ready();
  *reinterpret_cast<volatile std::uint32_t*>(flag) = 0;
  *reinterpret_cast<volatile std::uint32_t*>(ready) = 0;

  if (running) {
    kernels::launch_read_until_flag(words_at(view.address()), out.get(), words, flag, ready, kHoldNs, stream);
  } else {
    kernels::launch_gate(flag, ready, kHoldNs, stream);
    kernels::launch_copy_words(words_at(view.address()), out.get(), words, stream);
  }
  const auto deadline = clock::now() + std::chrono::seconds(10);
  while (*reinterpret_cast<volatile std::uint32_t*>(ready) == 0 && clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  const auto seen_ready = clock::now();
  // The observation means something only if the kernel is still held when the unmap starts.
  if (*reinterpret_cast<volatile std::uint32_t*>(ready) == 0)
    throw std::runtime_error("the kernel that uses the mapping never started (10 s); nothing was observed");

  const auto before = clock::now();
  if (std::chrono::duration<double, std::nano>(before - seen_ready).count() > 0.25 * kHoldNs)
    throw std::runtime_error("the host was too slow to unmap while the kernel was held; nothing was observed");
  const CUresult unmapped = view.unmap();  // on failure `view` keeps the mapping and unmaps it at the end
  const double unmap_ms = std::chrono::duration<double, std::milli>(clock::now() - before).count();
  *reinterpret_cast<volatile std::uint32_t*>(flag) = 1;
  const std::string fault = s.wait_or_fault(0);

  r.instances = 1;
  r.reason = std::string("cuMemUnmap returned ") + driver_error_name(unmapped) + " after " +
             std::to_string(static_cast<long>(unmap_ms)) + " ms" +
             (unmap_ms * 1e6 >= 0.9 * kHoldNs ? " (it waited for the kernel)" : "");
  if (unmapped != CUDA_SUCCESS) {
    add_outcome(r.histogram, "unmap_refused");
    return;
  }
  if (!fault.empty()) {
    add_outcome(r.histogram, "fault");
    r.reason += "; the kernel faulted: " + fault;
    return;
  }
  const std::uint64_t right = matching(to_host(out, stream), 0, words, kNew);
  add_outcome(r.histogram, right == words ? "completed" : "wrong");
  if (right != words) r.reason += "; " + std::to_string(words - right) + " words read other data";
}

}  // namespace vmmcheck::run
