// Runner of api.* (patterns/api.hpp): what the driver returns when the VMM API is misused, or for a
// documented query. The driver API documentation says what each call requires ("must") but, except where
// a verdict cites it, not which status a violation returns: the histogram records the status this
// driver gave, or the documented property that did not hold (VMMCHECK_*).
#include <unistd.h>

#include <cstdint>
#include <stdexcept>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "run/session.hpp"
#include "patterns/api.hpp"
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
constexpr const char* kStateChanged = "VMMCHECK_STATE_CHANGED";        // a refused unmap changed the mapping
constexpr const char* kWrongFlags = "VMMCHECK_WRONG_FLAGS";            // cuMemGetAccess disagreed with the grant

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
      if (st == CUDA_SUCCESS) d.cuMemRelease(h);
      return st;
    }
    case ApiCall::MapOverMapped: {
      vmm::AddressRange range(g, g);
      vmm::PhysicalAllocation first(dev, g), second(dev, g);
      vmm::Mapping mapped(range.base(), g, first, 0);
      return d.cuMemMap(range.base(), g, 0, second.handle(), 0);  // accepted or not, `mapped` unmaps va
    }
    case ApiCall::FreeMappedRange: {
      vmm::AddressRange range(g, g);
      vmm::PhysicalAllocation memory(dev, g);
      vmm::Mapping mapped(range.base(), g, memory, 0);
      const CUresult st = range.free();  // refused: the owner keeps the range and frees it after the unmap
      const CUresult unmapped = mapped.unmap();
      note = std::string("the unmap afterwards returned ") + driver_error_name(unmapped);
      return st;
    }
    case ApiCall::SetAccessUnmapped: {
      vmm::AddressRange range(g, g);
      const CUmemAccessDesc desc = read_write(dev);
      return d.cuMemSetAccess(range.base(), g, &desc, 1);
    }
    case ApiCall::ExportWithoutType: {
      vmm::PhysicalAllocation memory(dev, g, CU_MEM_HANDLE_TYPE_NONE);  // "Does not allow any export mechanism"
      int fd = -1;
      const CUresult st =
          d.cuMemExportToShareableHandle(&fd, memory.handle(), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
      if (st == CUDA_SUCCESS && fd >= 0) close(fd);
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
      if (st == CUDA_SUCCESS) d.cuMemRelease(h);
      return st;
    }
    case ApiCall::UnmapPartial:
    case ApiCall::UnmapWithHole: {
      // Half of one two-granule mapping; or a two-granule range of which only the first is mapped.
      const bool partial = call == ApiCall::UnmapPartial;
      vmm::AddressRange range(2 * g, g);
      vmm::PhysicalAllocation memory(dev, partial ? 2 * g : g);
      vmm::Mapping mapped(range.base(), partial ? 2 * g : g, memory, 0);
      const CUresult st = d.cuMemUnmap(range.base(), partial ? g : 2 * g);
      // Refused, the mapping must be as it was: unmapping it whole still works. Accepted, say what the
      // call did to the mapping (unmapping it again fails if it is gone).
      const CUresult whole = mapped.unmap();
      note = std::string("unmapping the whole mapping afterwards returned ") + driver_error_name(whole);
      if (st != CUDA_SUCCESS && whole != CUDA_SUCCESS) property = kStateChanged;
      return st;
    }
    case ApiCall::MapNonzeroOffset: {
      vmm::AddressRange range(g, g);
      vmm::PhysicalAllocation memory(dev, 2 * g);
      const CUresult st = d.cuMemMap(range.base(), g, g, memory.handle(), 0);
      if (st == CUDA_SUCCESS) d.cuMemUnmap(range.base(), g);
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
      // cannot be made over a linear VMM mapping, only over an array (proxy.surface: vmm/surface_alias.hpp).
      const vmm::AliasSet granted(dev, g, {vmm::ViewSpec{}});  // one granule, mapped, READWRITE for dev
      CUDA_RESOURCE_DESC res = {};
      res.resType = CU_RESOURCE_TYPE_LINEAR;
      res.res.linear.devPtr = granted.view(0).address;
      res.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT32;
      res.res.linear.numChannels = 1;
      res.res.linear.sizeInBytes = g;
      CUsurfObject surface = 0;
      const CUresult st = d.cuSurfObjectCreate(&surface, &res);
      if (st == CUDA_SUCCESS) d.cuSurfObjectDestroy(surface);
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

}  // namespace vmmcheck::run
