// Runner of lifecycle.unmap.* (patterns/unmap_in_use/definition.hpp): cuMemUnmap while a kernel that uses the
// mapping is queued behind a gate, or running. Nothing in the guide or the driver API defines the
// outcome: the case records it.
#include <chrono>
#include <stdexcept>
#include <thread>

#include "run/kit/support.hpp"
#include "common/driver.hpp"  // driver_error_name
#include "common/error.hpp"
#include "kernels/contract.hpp"
#include "patterns/unmap_in_use/kernels.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/session.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {
namespace {

constexpr std::uint32_t kNew = 0x0e1e1e1eu;  // what the mapping holds while the kernel uses it

}  // namespace

void run_pattern(GpuSession& s, const patterns::UnmapInUse& def, const model::Case&, CaseResult& r) {
  using vmm::Access;
  using vmm::AccessGrant;
  using clock = std::chrono::steady_clock;
  constexpr std::uint64_t kHoldNs = 1'000'000'000;  // how long the gate or the reader waits for the host
  const int dev = s.device();
  const bool running = def.kernel == patterns::KernelState::Running;
  const cudaStream_t stream = s.work();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::uint64_t words = g / sizeof(std::uint32_t);

  vmm::AddressRange range(g, g);
  vmm::PhysicalAllocation memory(dev, g);
  vmm::Mapping view(range.base(), g, memory, 0);
  AccessGrant grant(view, dev, Access::ReadWrite);
  fill(view.address(), words, kNew, stream);
  DeviceBuffer<std::uint32_t> out = poisoned(words, stream);
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
  const std::string fault = s.wait_or_fault(stream);

  r.instances = 1;
  r.reason = std::string("cuMemUnmap returned ") + driver_error_name(unmapped) + " after " +
             std::to_string(static_cast<long>(unmap_ms)) + " ms" +
             (unmap_ms * 1e6 >= 0.9 * kHoldNs ? " (it waited for the kernel)" : "");
  if (unmapped != CUDA_SUCCESS) {
    add_bin(r.histogram, patterns::UnmapInUse::UnmapRefused);
    return;
  }
  if (!fault.empty()) {
    add_bin(r.histogram, patterns::UnmapInUse::Fault);
    r.reason += "; the kernel faulted: " + fault;
    return;
  }
  const std::uint64_t right = matching(to_host(out, stream), 0, words, kNew);
  add_bin(r.histogram, right == words ? patterns::UnmapInUse::Completed : patterns::UnmapInUse::Wrong);
  if (right != words) r.reason += "; " + std::to_string(words - right) + " words read other data";
}

// Nothing beyond a device with VMM (what the driver refuses at run time is NotSupported then).
std::string why_not_here(const patterns::UnmapInUse&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
