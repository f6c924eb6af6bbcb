// Runner of api.* (patterns/api/definition.hpp): what the driver returns when the VMM API is misused, or for a
// documented query. The driver API documentation says what each call requires ("must") but, except where
// a verdict cites it, not which status a violation returns: the histogram records the status this
// driver gave, or the documented property that did not hold (VMMCHECK_*).
#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "run/kit/support.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "run/kit/session.hpp"
#include "patterns/api/definition.hpp"
#include "vmm/alias_set.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {
namespace {

CUmemAccessDesc read_write(int device) {
  CUmemAccessDesc desc = {};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = device;
  desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return desc;
}

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// What a call returned, and what the case checked beyond the status: a documented property that did
// not hold is an outcome of its own, named VMMCHECK_<what>, so the verdict can forbid it.
constexpr const char* kDifferentHandle = "VMMCHECK_DIFFERENT_HANDLE";  // retain gave another handle
constexpr const char* kStateChanged = "VMMCHECK_STATE_CHANGED";        // a misuse changed mappings or data
constexpr const char* kWrongFlags = "VMMCHECK_WRONG_FLAGS";            // cuMemGetAccess disagreed with the grant

// The state checks. A misuse the driver refuses must leave everything as it was; one it accepts
// (CUDA_SUCCESS, a Warning for a `rejected` case) must not corrupt data or leave a state the
// documentation has no room for -- else the outcome is kStateChanged, a Fail. Mappings are probed with
// cuMemRetainAllocationHandle (it fails where nothing is mapped), data with synchronous copies.
constexpr std::uint32_t kMarker = 0x0a11a5edu;

bool mapped_at(CUdeviceptr va) {
  CUmemGenericAllocationHandle h = 0;
  if (driver().cuMemRetainAllocationHandle(&h, reinterpret_cast<void*>(va)) != CUDA_SUCCESS) return false;
  driver().cuMemRelease(h);  // the retained reference
  return true;
}

void set_words(CUdeviceptr va, std::size_t bytes, std::uint32_t value) {
  std::vector<std::uint32_t> words(bytes / sizeof(std::uint32_t), value);
  CUDA_CHECK(cudaMemcpy(reinterpret_cast<void*>(va), words.data(), bytes, cudaMemcpyHostToDevice));
}

// Whether every word of [va, va + bytes) reads `value`; false also when the copy is refused.
bool holds(CUdeviceptr va, std::size_t bytes, std::uint32_t value) {
  std::vector<std::uint32_t> words(bytes / sizeof(std::uint32_t));
  if (cudaMemcpy(words.data(), reinterpret_cast<const void*>(va), bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  for (const std::uint32_t w : words)
    if (w != value) return false;
  return true;
}

// Performs the call under test and returns its status. Whatever the call did, what it created is
// released again (a misuse the driver accepted is undone with the matching call).
CUresult misuse(patterns::ApiCall call, int dev, std::string& note, std::string& property) {
  using patterns::ApiCall;
  const DriverApi& d = driver();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const CUmemAllocationProp prop = vmm::pinned_device_prop(dev, CU_MEM_HANDLE_TYPE_NONE);

  // Owners are declared in the reverse of the release order (mappings, then handles, then ranges).
  switch (call) {
    case ApiCall::SizeNotGranular: {
      CUmemGenericAllocationHandle h = 0;
      const CUresult st = d.cuMemCreate(&h, g / 2, &prop, 0);
      note = "asked for " + std::to_string(g / 2) + " bytes with a granularity of " + mib(g);
      if (st == CUDA_SUCCESS) {
        // Accepted: the handle it returned must at least be one the driver releases.
        const CUresult released = d.cuMemRelease(h);
        note += "; releasing the handle it returned gave " + std::string(driver_error_name(released));
        if (released != CUDA_SUCCESS) property = kStateChanged;
      }
      return st;
    }
    case ApiCall::MapOverMapped: {
      vmm::AddressRange range(g, g);
      vmm::PhysicalAllocation first(dev, g), second(dev, g);
      vmm::Mapping mapped(range.base(), g, first, 0);
      vmm::AccessGrant(mapped, dev, vmm::Access::ReadWrite);
      set_words(range.base(), g, kMarker);
      const CUresult st = d.cuMemMap(range.base(), g, 0, second.handle(), 0);  // accepted or not, `mapped` unmaps va
      // The address must still reach the first allocation, its data intact.
      const bool intact = holds(range.base(), g, kMarker);
      note = intact ? "the address still reads the first allocation's data" : "the address no longer reads the first allocation's data";
      if (!intact) property = kStateChanged;
      return st;
    }
    case ApiCall::FreeMappedRange: {
      vmm::AddressRange range(g, g);
      vmm::PhysicalAllocation memory(dev, g);
      vmm::Mapping mapped(range.base(), g, memory, 0);
      vmm::AccessGrant(mapped, dev, vmm::Access::ReadWrite);
      set_words(range.base(), g, kMarker);
      const CUresult st = range.free();  // refused: the owner keeps the range and frees it after the unmap
      // Accepted or not, the mapping must still hold its data until it is unmapped.
      const bool intact = holds(range.base(), g, kMarker);
      const CUresult unmapped = mapped.unmap();
      note = std::string(intact ? "the mapping still read its data" : "the mapping no longer read its data") +
             "; the unmap afterwards returned " + driver_error_name(unmapped);
      if (!intact) property = kStateChanged;
      return st;
    }
    case ApiCall::SetAccessUnmapped: {
      vmm::AddressRange range(g, g);
      const CUmemAccessDesc desc = read_write(dev);
      const CUresult st = d.cuMemSetAccess(range.base(), g, &desc, 1);
      // Accepted or not, the reservation must still take a mapping that works.
      vmm::PhysicalAllocation memory(dev, g);
      vmm::Mapping mapped(range.base(), g, memory, 0);
      vmm::AccessGrant(mapped, dev, vmm::Access::ReadWrite);
      set_words(range.base(), g, kMarker);
      const bool usable = holds(range.base(), g, kMarker);
      note = usable ? "the reservation then took a mapping that worked" : "a mapping made in the reservation afterwards did not work";
      if (!usable) property = kStateChanged;
      return st;
    }
    case ApiCall::ExportWithoutType: {
      vmm::PhysicalAllocation memory(dev, g, CU_MEM_HANDLE_TYPE_NONE);  // "Does not allow any export mechanism"
      int fd = -1;
      const CUresult st =
          d.cuMemExportToShareableHandle(&fd, memory.handle(), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
      if (st == CUDA_SUCCESS && fd >= 0) close(fd);
      // The allocation itself must be as created: still no handle type requested.
      CUmemAllocationProp now = {};
      const CUresult asked = d.cuMemGetAllocationPropertiesFromHandle(&now, memory.handle());
      const bool same = asked == CUDA_SUCCESS && now.requestedHandleTypes == CU_MEM_HANDLE_TYPE_NONE;
      note = same ? "the allocation still requests no handle type" : "the allocation's properties changed or could not be read";
      if (!same) property = kStateChanged;
      return st;
    }
    case ApiCall::ImportInvalidFd: {
      CUmemGenericAllocationHandle h = 0;
      const CUresult st = d.cuMemImportFromShareableHandle(
          &h, reinterpret_cast<void*>(static_cast<std::intptr_t>(-1)), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
      if (st == CUDA_SUCCESS) d.cuMemRelease(h);
      return st;
    }
    case ApiCall::DoubleRelease: {
      CUmemGenericAllocationHandle h = 0;
      VMM_CHECK(d.cuMemCreate(&h, g, &prop, 0));
      VMM_CHECK(d.cuMemRelease(h));
      return d.cuMemRelease(h);  // cuMemRelease: "If handle is not a valid handle the behavior is undefined"
    }
    case ApiCall::RetainThroughAlias: {
      // "The handle is guaranteed to be the same handle value used to map the memory", at any address
      // of a range mapped by cuMemMap -- here a second mapping of the allocation.
      vmm::AddressRange a(g, g), b(g, g);
      vmm::PhysicalAllocation memory(dev, g);
      vmm::Mapping view_a(a.base(), g, memory, 0), view_b(b.base(), g, memory, 0);
      CUmemGenericAllocationHandle h = 0;
      const CUresult st = d.cuMemRetainAllocationHandle(&h, reinterpret_cast<void*>(b.base() + 64));
      if (st == CUDA_SUCCESS) {
        if (h != memory.handle()) property = kDifferentHandle;
        note = h == memory.handle() ? "the handle retained through the alias is the one mapped"
                                    : "the handle retained through the alias differs from the one mapped";
        d.cuMemRelease(h);  // a retained handle is released once more
      }
      return st;
    }
    case ApiCall::RetainUnmapped: {
      vmm::AddressRange range(g, g);
      CUmemGenericAllocationHandle h = 0;
      const CUresult st = d.cuMemRetainAllocationHandle(&h, reinterpret_cast<void*>(range.base()));
      if (st == CUDA_SUCCESS) {
        // Accepted: the handle it made up must at least be one the driver releases.
        const CUresult released = d.cuMemRelease(h);
        note = "releasing the handle it returned gave " + std::string(driver_error_name(released));
        if (released != CUDA_SUCCESS) property = kStateChanged;
      }
      return st;
    }
    case ApiCall::UnmapPartial:
    case ApiCall::UnmapWithHole: {
      // Half of one two-granule mapping; or a two-granule range of which only the first is mapped.
      const bool partial = call == ApiCall::UnmapPartial;
      const std::size_t size = partial ? 2 * g : g;
      vmm::AddressRange range(2 * g, g);
      vmm::PhysicalAllocation memory(dev, size);
      vmm::Mapping mapped(range.base(), size, memory, 0);
      vmm::AccessGrant(mapped, dev, vmm::Access::ReadWrite);
      set_words(range.base(), size, kMarker);
      const CUresult st = d.cuMemUnmap(range.base(), partial ? g : 2 * g);
      // Afterwards the mapping is whole with its data (the call did nothing), or -- accepted -- gone
      // whole; part of it gone, its data changed, or the hole mapped is a state the documentation has
      // no room for. Then unmapping it whole must work if it is still there.
      const bool first = mapped_at(range.base()), second = mapped_at(range.base() + g);
      const bool whole_mapped = partial ? first && second : first && !second;
      const bool gone = !first && !second;
      const bool intact = whole_mapped && holds(range.base(), size, kMarker);
      const CUresult whole = mapped.unmap();
      note = std::string(intact ? "afterwards the mapping was whole, its data intact"
                         : gone ? "afterwards nothing was mapped in the range"
                                : "afterwards the mapping was neither whole with its data nor gone") +
             (partial ? "" : second ? " (and the hole was mapped)" : "") +
             "; unmapping the whole mapping then returned " + driver_error_name(whole);
      const bool consistent = st == CUDA_SUCCESS ? intact || gone : intact && whole == CUDA_SUCCESS;
      if (!consistent) property = kStateChanged;
      return st;
    }
    case ApiCall::MapNonzeroOffset: {
      vmm::AddressRange range(g, g), whole(2 * g, g);
      vmm::PhysicalAllocation memory(dev, 2 * g);
      const CUresult st = d.cuMemMap(range.base(), g, g, memory.handle(), 0);
      if (st == CUDA_SUCCESS) {
        // Accepted: the address must reach the allocation's second granule, as the offset asked.
        vmm::Mapping all(whole.base(), 2 * g, memory, 0);
        vmm::AccessGrant(all, dev, vmm::Access::ReadWrite);
        set_words(whole.base(), g, 0);
        set_words(whole.base() + g, g, kMarker);
        vmm::AccessGrant(range.base(), g, dev, vmm::Access::ReadWrite);
        const bool right = holds(range.base(), g, kMarker);
        note = right ? "the mapping reached the allocation's second granule, as asked" : "the mapping did not reach the granule the offset named";
        if (!right) property = kStateChanged;
        d.cuMemUnmap(range.base(), g);
      }
      return st;
    }
    case ApiCall::GetAccess: {
      const vmm::AliasSet granted(dev, g, {vmm::ViewSpec{}});  // one granule, mapped, READWRITE for dev
      CUmemLocation where = {};
      where.type = CU_MEM_LOCATION_TYPE_DEVICE;
      where.id = dev;
      unsigned long long flags = 0;
      const CUresult st = d.cuMemGetAccess(&flags, &where, granted.view(0).address + 64);
      if (st == CUDA_SUCCESS && flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) property = kWrongFlags;
      note = "flags " + std::to_string(flags) + " after a READWRITE grant (PROT_READWRITE is " +
             std::to_string(CU_MEM_ACCESS_FLAGS_PROT_READWRITE) + ")";
      return st;
    }
    case ApiCall::AddressRangeStitched: {
      // Two allocations mapped back to back in one reserved range; ask about an address in the second.
      vmm::AddressRange range(2 * g, g);
      vmm::PhysicalAllocation lo(dev, g), hi(dev, g);
      vmm::Mapping lo_map(range.base(), g, lo, 0), hi_map(range.base() + g, g, hi, 0);
      CUdeviceptr base = 0;
      std::size_t size = 0;
      const CUresult st = d.cuMemGetAddressRange(&base, &size, range.base() + g + 64);
      if (st == CUDA_SUCCESS) {
        const long long from = static_cast<long long>(base) - static_cast<long long>(range.base());
        note = "base at reservation + " + std::to_string(from) + " bytes, size " + std::to_string(size) +
               " (one allocation is " + std::to_string(g) + ", the reservation " + std::to_string(2 * g) + ")";
      }
      return st;
    }
    case ApiCall::HostExportable: {
      // cuMemCreate: "HOST allocations are not IPC capable and requestedHandleTypes must be 0, any other
      // value will result in CUDA_ERROR_INVALID_VALUE."
      CUmemAllocationProp host = {};
      host.type = CU_MEM_ALLOCATION_TYPE_PINNED;
      host.location.type = CU_MEM_LOCATION_TYPE_HOST;
      host.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
      CUmemGenericAllocationHandle h = 0;
      const CUresult st = d.cuMemCreate(&h, g, &host, 0);
      if (st == CUDA_SUCCESS) d.cuMemRelease(h);
      return st;
    }
    case ApiCall::SurfaceOverLinear: {
      // cuSurfObjectCreate: "CUDA_RESOURCE_DESC::resType must be CU_RESOURCE_TYPE_ARRAY": a surface
      // cannot be made over a linear VMM mapping, only over an array (proxy.surface: harness/vmm/surface_alias.hpp).
      const vmm::AliasSet granted(dev, g, {vmm::ViewSpec{}});  // one granule, mapped, READWRITE for dev
      CUDA_RESOURCE_DESC res = {};
      res.resType = CU_RESOURCE_TYPE_LINEAR;
      res.res.linear.devPtr = granted.view(0).address;
      res.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT32;
      res.res.linear.numChannels = 1;
      res.res.linear.sizeInBytes = g;
      CUsurfObject surface = 0;
      set_words(granted.view(0).address, g, kMarker);
      const CUresult st = d.cuSurfObjectCreate(&surface, &res);
      if (st == CUDA_SUCCESS) d.cuSurfObjectDestroy(surface);
      // Accepted or not, the memory under it must be untouched.
      const bool intact = holds(granted.view(0).address, g, kMarker);
      if (!intact) property = kStateChanged;
      note = intact ? "the mapping's data was untouched" : "the mapping's data changed";
      return st;
    }
    case ApiCall::Granularity: {
      std::size_t minimum = 0, recommended = 0;
      CUresult st = d.cuMemGetAllocationGranularity(&minimum, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
      if (st == CUDA_SUCCESS)
        st = d.cuMemGetAllocationGranularity(&recommended, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
      note = "minimum " + mib(minimum) + ", recommended " + mib(recommended) +
             (minimum && recommended % minimum == 0 ? " (a multiple of the minimum)" : " (NOT a multiple of the minimum)");
      return st;
    }
  }
  throw std::invalid_argument("no api case for this call");
}

}  // namespace

void run_pattern(GpuSession& s, const patterns::Api& def, const model::Case&, CaseResult& r) {
  std::string note, property;
  const CUresult st = misuse(def.call, s.device(), note, property);
  add_outcome(r.histogram, property.empty() ? driver_error_name(st) : property);
  r.instances = 1;
  r.reason = std::string("the driver returned ") + driver_error_name(st) + (note.empty() ? "" : "; " + note);
}

// Nothing beyond a device with VMM (what the driver refuses at run time is NotSupported then).
std::string why_not_here(const patterns::Api&, const device::ProbeReport&, int) { return ""; }

}  // namespace vmmcheck::run
