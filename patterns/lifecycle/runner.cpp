// Runner of lifecycle.* (patterns/lifecycle/definition.hpp): data belongs to the physical allocation, not to an
// address. Every word checked is one instance.
#include <vector>

#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/session.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {
namespace {

constexpr std::uint32_t kOld = 0x01d01d01u;
constexpr std::uint32_t kNew = 0x0e1e1e1eu;
constexpr std::uint32_t kOther = 0x0dddd0ddu;  // what the control's overwrite puts there

// Counts words[begin, end) as intact (== expected) or corrupt into the case's histogram.
void tally(const std::vector<std::uint32_t>& words, std::size_t begin, std::size_t end, std::uint32_t expected,
           CaseResult& r) {
  const std::uint64_t intact = matching(words, begin, end, expected);
  add_bin(r.histogram, patterns::Lifecycle::Intact, intact);
  add_bin(r.histogram, patterns::Lifecycle::Corrupt, (end - begin) - intact);
  r.instances += end - begin;
}

}  // namespace

void run_pattern(GpuSession& s, const patterns::Lifecycle& def, const model::Case&, CaseResult& r) {
  // The words at `address`, read back by a kernel; the control has another kernel overwrite them first.
  auto read_back = [&](CUdeviceptr address, std::uint64_t count, cudaStream_t stream) {
    if (def.interference == patterns::Interference::Overwrite || mutated(Mutant::StrayWrite)) fill(address, count, kOther, stream);
    return run::read_back(address, count, stream);
  };
  using vmm::Access;
  using vmm::AccessGrant;
  using vmm::AddressRange;
  using vmm::Mapping;
  using vmm::PhysicalAllocation;
  const int dev = s.device();
  const cudaStream_t stream = s.work();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::uint64_t words = g / sizeof(std::uint32_t);

  switch (def.scenario) {
    case patterns::Scenario::ReleaseBeforeUnmap: {
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
      break;
    }
    case patterns::Scenario::RemapSameVa:
    case patterns::Scenario::RemapNewVa: {
      AddressRange range(g, g), other(g, g);
      PhysicalAllocation memory(dev, g);
      {
        Mapping view(range.base(), g, memory, 0);
        AccessGrant grant(view, dev, Access::ReadWrite);
        fill(view.address(), words, kNew, stream);
      }  // unmapped here: the range is a bare reservation again, the memory is still held by the handle
      const CUdeviceptr at = def.scenario == patterns::Scenario::RemapSameVa ? range.base() : other.base();
      Mapping again(at, g, memory, 0);
      AccessGrant grant(again, dev, Access::ReadWrite);  // a new mapping needs its access granted again
      tally(read_back(again.address(), words, stream), 0, words, kNew, r);
      break;
    }
    case patterns::Scenario::RemapOtherAllocation: {
      // The same address, first mapped to one allocation, then to another: a stale translation would
      // still reach the first and show its data.
      AddressRange range(g, g), second_range(g, g);
      PhysicalAllocation first(dev, g), second(dev, g);
      Mapping second_view(second_range.base(), g, second, 0);
      AccessGrant second_grant(second_view, dev, Access::ReadWrite);
      fill(second_view.address(), words, kNew, stream);  // the second allocation holds NEW
      {
        Mapping view(range.base(), g, first, 0);
        AccessGrant grant(view, dev, Access::ReadWrite);
        fill(view.address(), words, kOld, stream);  // the first holds OLD, read once through va
        tally(read_back(view.address(), words, stream), 0, words, kOld, r);
      }
      Mapping again(range.base(), g, second, 0);
      AccessGrant grant(again, dev, Access::ReadWrite);
      tally(read_back(again.address(), words, stream), 0, words, kNew, r);
      break;
    }
    case patterns::Scenario::PartialMapping: {
      // Only the first granule of a two-granule allocation mapped at va; the whole of it at another
      // address writes both granules.
      AddressRange whole_range(2 * g, g), part_range(g, g);
      PhysicalAllocation memory(dev, 2 * g);
      Mapping whole(whole_range.base(), 2 * g, memory, 0);
      AccessGrant whole_grant(whole, dev, Access::ReadWrite);
      fill(whole.address(), words, kOld, stream);
      fill(whole.address() + g, words, kNew, stream);
      // cuMemMap documents a size below the allocation's; a driver that refuses it cannot run the case.
      Mapping part;
      try {
        part = Mapping(part_range.base(), g, memory, 0);
      } catch (const CudaError& e) {
        if (e.code() != CUDA_ERROR_NOT_SUPPORTED) throw;
        throw NotSupportedError(std::string("this driver does not map part of an allocation: ") + e.what());
      }
      AccessGrant part_grant(part, dev, Access::ReadWrite);
      tally(read_back(part.address(), words, stream), 0, words, kOld, r);
      break;
    }
    case patterns::Scenario::Seam: {
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
      break;
    }
    case patterns::Scenario::Grow: {
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
        for (std::size_t j = 0; j <= k; ++j)
          tally(seen, j * words, (j + 1) * words, kNew + static_cast<std::uint32_t>(j), r);
      }
      break;
    }
  }
}

// Nothing beyond a device with VMM (what the driver refuses at run time is NotSupported then).
std::string why_not_here(const patterns::Lifecycle&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
