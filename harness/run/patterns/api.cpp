// Runner of api.* (patterns/api.hpp): what the driver returns when the VMM API is misused. The driver API documentation says
// what each call requires ("must") but, except where a verdict cites it, not which status a violation
// returns: those cases are `undefined` and their histogram records the status this driver gave.
#include <unistd.h>

#include <cstdint>
#include <stdexcept>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "run/session.hpp"
#include "patterns/api.hpp"
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

// Performs the misuse and returns the status of the call under test. Whatever the call did, what it
// created is released again (a misuse the driver accepted is undone with the matching call).
CUresult misuse(patterns::ApiCall call, int dev, std::string& note) {
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
  std::string note;
  const CUresult st = misuse(def.call, s.device(), note);
  add_outcome(r.histogram, driver_error_name(st));
  r.instances = 1;
  r.reason = std::string("the driver returned ") + driver_error_name(st) + (note.empty() ? "" : "; " + note);
}

}  // namespace vmmcheck::run
