#include "vmm/owners.hpp"

#include "common/driver.hpp"
#include "common/error.hpp"

namespace vmmcheck::vmm {

CUmemAllocationProp pinned_device_prop(int device, CUmemAllocationHandleType handle_types) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = handle_types;
  return prop;
}

std::size_t allocation_granularity(int device, bool recommended) {
  const CUmemAllocationProp prop = pinned_device_prop(device, CU_MEM_HANDLE_TYPE_NONE);
  std::size_t granularity = 0;
  VMM_CHECK(driver().cuMemGetAllocationGranularity(
      &granularity, &prop, recommended ? CU_MEM_ALLOC_GRANULARITY_RECOMMENDED : CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  return granularity;
}

namespace detail {

CUresult free_range(const Range& r) noexcept { return driver().cuMemAddressFree(r.base, r.size); }
CUresult release_allocation(const Allocation& a) noexcept { return driver().cuMemRelease(a.handle); }
CUresult unmap(const Mapped& m) noexcept { return driver().cuMemUnmap(m.address, m.size); }

}  // namespace detail

AddressRange::AddressRange(std::size_t size, std::size_t alignment) {
  CUdeviceptr base = 0;
  VMM_CHECK(driver().cuMemAddressReserve(&base, size, alignment, 0, 0));
  owner_ = UniqueHandle<detail::RangeTraits>({base, size});
}

PhysicalAllocation::PhysicalAllocation(int device, std::size_t size, CUmemAllocationHandleType handle_types)
    : PhysicalAllocation(pinned_device_prop(device, handle_types), size, device) {}

PhysicalAllocation::PhysicalAllocation(const CUmemAllocationProp& prop, std::size_t size, int device) {
  CUmemGenericAllocationHandle handle = 0;
  VMM_CHECK(driver().cuMemCreate(&handle, size, &prop, 0));
  owner_ = UniqueHandle<detail::AllocationTraits>({handle, size, device});
}

PhysicalAllocation PhysicalAllocation::imported(void* shareable, CUmemAllocationHandleType type, std::size_t size,
                                                int device) {
  CUmemGenericAllocationHandle handle = 0;
  VMM_CHECK(driver().cuMemImportFromShareableHandle(&handle, shareable, type));
  PhysicalAllocation a;
  a.owner_ = UniqueHandle<detail::AllocationTraits>({handle, size, device});
  return a;
}

UniqueFd export_fd(CUmemGenericAllocationHandle handle) {
  int fd = -1;
  VMM_CHECK(driver().cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  return UniqueFd(fd);
}

Mapping::Mapping(CUdeviceptr address, std::size_t size, const PhysicalAllocation& allocation, std::size_t offset)
    : Mapping(address, size, allocation.handle(), offset) {}

Mapping::Mapping(CUdeviceptr address, std::size_t size, CUmemGenericAllocationHandle handle, std::size_t offset) {
  VMM_CHECK(driver().cuMemMap(address, size, offset, handle, 0));
  owner_ = UniqueHandle<detail::MappedTraits>({address, size, offset});
}

AccessGrant::AccessGrant(const Mapping& mapping, int device, Access access)
    : AccessGrant(mapping.address(), mapping.size(), device, access) {}

AccessGrant::AccessGrant(CUdeviceptr address, std::size_t size, int device, Access access)
    : device_(device), access_(access) {
  CUmemAccessDesc desc = {};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = device;
  desc.flags = access == Access::ReadWrite ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : CU_MEM_ACCESS_FLAGS_PROT_READ;
  VMM_CHECK(driver().cuMemSetAccess(address, size, &desc, 1));
}

}  // namespace vmmcheck::vmm
