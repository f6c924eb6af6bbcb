#include "vmm/owners.hpp"

#include <utility>

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
      &granularity, &prop,
      recommended ? CU_MEM_ALLOC_GRANULARITY_RECOMMENDED : CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  return granularity;
}

// --- AddressRange -------------------------------------------------------------------------------

AddressRange::AddressRange(std::size_t size, std::size_t alignment) {
  VMM_CHECK(driver().cuMemAddressReserve(&base_, size, alignment, 0, 0));
  size_ = size;
}

AddressRange::~AddressRange() { reset(); }

AddressRange::AddressRange(AddressRange&& other) noexcept
    : base_(std::exchange(other.base_, 0)), size_(std::exchange(other.size_, 0)) {}

AddressRange& AddressRange::operator=(AddressRange&& other) noexcept {
  if (this != &other) {
    reset();
    base_ = std::exchange(other.base_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void AddressRange::reset() noexcept {
  free();  // nothing useful to do on failure
  base_ = 0;
  size_ = 0;
}

CUresult AddressRange::free() noexcept {
  const CUresult status = base_ != 0 ? driver().cuMemAddressFree(base_, size_) : CUDA_SUCCESS;
  if (status == CUDA_SUCCESS) {
    base_ = 0;
    size_ = 0;
  }
  return status;
}

// --- PhysicalAllocation -------------------------------------------------------------------------

PhysicalAllocation::PhysicalAllocation(int device, std::size_t size,
                                       CUmemAllocationHandleType handle_types) {
  const CUmemAllocationProp prop = pinned_device_prop(device, handle_types);
  VMM_CHECK(driver().cuMemCreate(&handle_, size, &prop, 0));
  size_ = size;
  device_ = device;
}

PhysicalAllocation::~PhysicalAllocation() { reset(); }

PhysicalAllocation::PhysicalAllocation(PhysicalAllocation&& other) noexcept
    : handle_(std::exchange(other.handle_, 0)),
      size_(std::exchange(other.size_, 0)),
      device_(std::exchange(other.device_, -1)) {}

PhysicalAllocation& PhysicalAllocation::operator=(PhysicalAllocation&& other) noexcept {
  if (this != &other) {
    reset();
    handle_ = std::exchange(other.handle_, 0);
    size_ = std::exchange(other.size_, 0);
    device_ = std::exchange(other.device_, -1);
  }
  return *this;
}

void PhysicalAllocation::reset() noexcept {
  release();  // nothing useful to do on failure
  handle_ = 0;
  size_ = 0;
  device_ = -1;
}

CUresult PhysicalAllocation::release() noexcept {
  const CUresult status = handle_ != 0 ? driver().cuMemRelease(handle_) : CUDA_SUCCESS;
  if (status == CUDA_SUCCESS) {
    handle_ = 0;
    size_ = 0;
    device_ = -1;
  }
  return status;
}

// --- Mapping ------------------------------------------------------------------------------------

Mapping::Mapping(CUdeviceptr address, std::size_t size, const PhysicalAllocation& allocation,
                 std::size_t offset) {
  VMM_CHECK(driver().cuMemMap(address, size, offset, allocation.handle(), 0));
  address_ = address;
  size_ = size;
  offset_ = offset;
}

Mapping::~Mapping() { reset(); }

Mapping::Mapping(Mapping&& other) noexcept
    : address_(std::exchange(other.address_, 0)),
      size_(std::exchange(other.size_, 0)),
      offset_(std::exchange(other.offset_, 0)) {}

Mapping& Mapping::operator=(Mapping&& other) noexcept {
  if (this != &other) {
    reset();
    address_ = std::exchange(other.address_, 0);
    size_ = std::exchange(other.size_, 0);
    offset_ = std::exchange(other.offset_, 0);
  }
  return *this;
}

void Mapping::reset() noexcept {
  unmap();  // nothing useful to do on failure
  address_ = 0;
  size_ = 0;
  offset_ = 0;
}

CUresult Mapping::unmap() noexcept {
  const CUresult status = address_ != 0 ? driver().cuMemUnmap(address_, size_) : CUDA_SUCCESS;
  if (status == CUDA_SUCCESS) {
    address_ = 0;
    size_ = 0;
    offset_ = 0;
  }
  return status;
}

// --- AccessGrant --------------------------------------------------------------------------------

AccessGrant::AccessGrant(const Mapping& mapping, int device, Access access)
    : AccessGrant(mapping.address(), mapping.size(), device, access) {}

AccessGrant::AccessGrant(CUdeviceptr address, std::size_t size, int device, Access access)
    : device_(device), access_(access) {
  CUmemAccessDesc desc = {};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = device;
  desc.flags = access == Access::ReadWrite ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                                           : CU_MEM_ACCESS_FLAGS_PROT_READ;
  VMM_CHECK(driver().cuMemSetAccess(address, size, &desc, 1));
}

}  // namespace vmmcheck::vmm
