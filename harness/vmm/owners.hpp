#pragma once
// Move-only owners of the four VMM steps. Each releases what it owns in its destructor, never throws
// there, and leaves a moved-from owner empty, so a failure half-way through building an alias set
// unwinds exactly what was built: no leak, no double release.
//
// Release order (guide §4.17.3.5): unmap, then release the handle, then free the address range. The
// owners do not enforce it among themselves; AliasSet declares its members so destruction follows it.
#include <cuda.h>

#include <cstddef>

namespace vmmcheck::vmm {

// A reserved virtual address range (cuMemAddressReserve / cuMemAddressFree). No memory behind it.
class AddressRange {
 public:
  AddressRange() = default;
  AddressRange(std::size_t size, std::size_t alignment);
  ~AddressRange();
  AddressRange(AddressRange&& other) noexcept;
  AddressRange& operator=(AddressRange&& other) noexcept;
  AddressRange(const AddressRange&) = delete;
  AddressRange& operator=(const AddressRange&) = delete;

  CUdeviceptr base() const noexcept { return base_; }
  std::size_t size() const noexcept { return size_; }

  // Frees the range now and returns the driver's status. On success the owner is empty; on failure it
  // still owns the range, and its destructor tries again.
  CUresult free() noexcept;

 private:
  void reset() noexcept;
  CUdeviceptr base_ = 0;
  std::size_t size_ = 0;
};

// Physical memory on one device (cuMemCreate / cuMemRelease). A handle, not a pointer.
class PhysicalAllocation {
 public:
  PhysicalAllocation() = default;
  PhysicalAllocation(int device, std::size_t size,
                     CUmemAllocationHandleType handle_types = CU_MEM_HANDLE_TYPE_NONE);
  ~PhysicalAllocation();
  PhysicalAllocation(PhysicalAllocation&& other) noexcept;
  PhysicalAllocation& operator=(PhysicalAllocation&& other) noexcept;
  PhysicalAllocation(const PhysicalAllocation&) = delete;
  PhysicalAllocation& operator=(const PhysicalAllocation&) = delete;

  CUmemGenericAllocationHandle handle() const noexcept { return handle_; }
  std::size_t size() const noexcept { return size_; }
  int device() const noexcept { return device_; }

  // Releases the handle now and returns the driver's status (on failure the owner keeps the handle).
  // The guide allows this while mappings remain: the memory lives until its last mapping is gone.
  CUresult release() noexcept;

 private:
  void reset() noexcept;
  CUmemGenericAllocationHandle handle_ = 0;
  std::size_t size_ = 0;
  int device_ = -1;
};

// `size` bytes of an allocation, starting `offset` bytes into it, mapped at `address`
// (cuMemMap / cuMemUnmap). Mapping grants no access: see grant_access().
class Mapping {
 public:
  Mapping() = default;
  Mapping(CUdeviceptr address, std::size_t size, const PhysicalAllocation& allocation,
          std::size_t offset);
  ~Mapping();
  Mapping(Mapping&& other) noexcept;
  Mapping& operator=(Mapping&& other) noexcept;
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  CUdeviceptr address() const noexcept { return address_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t offset() const noexcept { return offset_; }

  // Unmaps now and returns the driver's status. On success the owner is empty; on failure it still
  // owns the mapping, and its destructor tries again.
  CUresult unmap() noexcept;

 private:
  void reset() noexcept;
  CUdeviceptr address_ = 0;
  std::size_t size_ = 0;
  std::size_t offset_ = 0;
};

enum class Access { Read, ReadWrite };

// A record that `device` may access a mapping (cuMemSetAccess). There is nothing to release: the
// driver drops the grant with the mapping, so the grant lives exactly as long as the Mapping it names.
class AccessGrant {
 public:
  AccessGrant(const Mapping& mapping, int device, Access access);
  // A grant on part of what is mapped: [address, address + size) must lie in mapped ranges.
  AccessGrant(CUdeviceptr address, std::size_t size, int device, Access access);
  int device() const noexcept { return device_; }
  Access access() const noexcept { return access_; }

 private:
  int device_;
  Access access_;
};

// The properties of pinned memory on `device` that cuMemCreate and the granularity query take.
CUmemAllocationProp pinned_device_prop(int device, CUmemAllocationHandleType handle_types);

// The allocation granularity for pinned device memory on `device`.
std::size_t allocation_granularity(int device, bool recommended);

// `value` rounded up to a multiple of `granularity`.
constexpr std::size_t round_up(std::size_t value, std::size_t granularity) {
  return granularity == 0 ? value : (value + granularity - 1) / granularity * granularity;
}

}  // namespace vmmcheck::vmm
