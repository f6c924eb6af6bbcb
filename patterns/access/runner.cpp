// Runner of access.* (patterns/access/definition.hpp): a kernel reads or writes one granule through a mapping whose
// access rights the case sets; a second, read-write mapping of the same memory initialises it and
// checks writes. Each case builds its own allocations with the RAII owners, so a case leaves nothing
// behind -- even one that faults.
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "kernels/contract.hpp"
#include "kernels/operations.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/session.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {
namespace {

constexpr std::uint32_t kOld = 0x01d01d01u;    // what the memory holds before the access under test
constexpr std::uint32_t kNew = 0x0e1e1e1eu;    // what the access under test writes
constexpr std::uint32_t kFirst = 0x0f1f1f1fu;  // what the first kernel writes (read_after_rw)

}  // namespace

void run_pattern(GpuSession& s, const patterns::Access& def, const model::Case&, CaseResult& r) {
  using patterns::Grant;
  using vmm::Access;
  using vmm::AccessGrant;
  const int dev = s.device();
  const bool write = def.op == patterns::AccessOp::Write;
  const cudaStream_t stream = s.work();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::uint64_t words = g / sizeof(std::uint32_t);

  // Two allocations side by side in one range, so a grant can cover the first and not the second.
  // Declared in the reverse of the release order: mappings go first, then handles, then ranges.
  vmm::AddressRange check_range(2 * g, g), test_range(2 * g, g);
  vmm::PhysicalAllocation first(dev, g), second(dev, g);
  vmm::Mapping check_lo(check_range.base(), g, first, 0), check_hi(check_range.base() + g, g, second, 0);
  AccessGrant check_grant(check_range.base(), 2 * g, dev, Access::ReadWrite);
  vmm::Mapping test_lo(test_range.base(), g, first, 0), test_hi(test_range.base() + g, g, second, 0);
  fill(check_range.base(), 2 * words, kOld, stream);

  std::uint32_t expected_read = kOld;
  // The mutants: no grant at all, or read-write over the whole range whatever the case grants.
  Grant grant = def.grant;
  if (mutated(Mutant::NoGrant)) grant = Grant::None;
  const bool full = mutated(Mutant::FullGrant);
  if (full && grant != Grant::ReadAfterRw) grant = Grant::ReadWrite;
  switch (grant) {
    case Grant::None: break;
    case Grant::Read: AccessGrant(test_range.base(), 2 * g, dev, Access::Read); break;
    case Grant::ReadWrite: AccessGrant(test_range.base(), 2 * g, dev, Access::ReadWrite); break;
    case Grant::SubrangeInside:
    case Grant::SubrangeOutside: AccessGrant(test_lo, dev, Access::ReadWrite); break;
    case Grant::ReadAfterRw:
      AccessGrant(test_range.base(), 2 * g, dev, Access::ReadWrite);
      fill(test_range.base(), words, kFirst, stream);  // the first kernel, under read-write access
      expected_read = kFirst;
      if (!full) AccessGrant(test_range.base(), 2 * g, dev, Access::Read);
      break;
  }
  // The access under test touches the second granule only when the grant covers the first alone.
  const bool outside = def.grant == Grant::SubrangeOutside;
  const CUdeviceptr target = test_range.base() + (outside ? g : 0);
  const std::size_t target_word = outside ? words : 0;

  DeviceBuffer<std::uint32_t> out = poisoned(words, stream);
  if (write) kernels::launch_fill(words_at(target), words, kNew, stream);
  else kernels::launch_copy_words(words_at(target), out.get(), words, stream);
  r.instances = 1;
  if (const std::string fault = s.wait_or_fault(stream); !fault.empty()) {
    add_bin(r.histogram, patterns::Access::Fault);
    r.reason = "the access faulted: " + fault;
    return;
  }
  const std::vector<std::uint32_t> seen =
      write ? read_back(check_range.base() + target_word * sizeof(std::uint32_t), words, stream) : to_host(out, stream);
  const std::uint64_t right = matching(seen, 0, words, write ? kNew : expected_read);
  add_bin(r.histogram, right == words ? patterns::Access::Completed : patterns::Access::Wrong);
  if (right != words)
    r.reason = std::to_string(words - right) + " of " + std::to_string(words) + " words " +
               (write ? "did not take the write" : "read back wrong");
}

// Nothing beyond a device with VMM (what the driver refuses at run time is NotSupported then).
std::string why_not_here(const patterns::Access&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
