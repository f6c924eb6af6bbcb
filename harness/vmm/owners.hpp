#pragma once
// Move-only owners of the four VMM steps, each a UniqueHandle (common/unique_handle.hpp): the destructor
// releases without throwing, release on request returns the driver's status, and a moved-from owner is
// empty, so a failure half-way through building an alias set unwinds exactly what was built: no leak,
// no double release.
//
// Release order (guide 4.17.3.5; docs/design.md, "Owners and release order"): unmap every mapping, then
// release the handle, then free the address range. The owners do not enforce it among themselves:
// whoever holds several declares them so that destruction follows it (AliasSet does, and says so).
#include <cuda.h>

#include <cstddef>

#include "common/unique_fd.hpp"
#include "common/unique_handle.hpp"

namespace vmmcheck::vmm {

namespace detail {

// What each owner holds; held() says whether there is something to release.
struct Range {
  CUdeviceptr base = 0;
  std::size_t size = 0;
  bool held() const noexcept { return base != 0; }
};
struct Allocation {
  CUmemGenericAllocationHandle handle = 0;
  std::size_t size = 0;
  int device = -1;
  bool held() const noexcept { return handle != 0; }
};
struct Mapped {
  CUdeviceptr address = 0;
  std::size_t size = 0;
  std::size_t offset = 0;
  bool held() const noexcept { return address != 0; }
};

CUresult free_range(const Range& r) noexcept;              // cuMemAddressFree
CUresult release_allocation(const Allocation& a) noexcept;  // cuMemRelease
CUresult unmap(const Mapped& m) noexcept;                   // cuMemUnmap

// UniqueHandle traits for a VMM state released by `Release`.
template <typename S, CUresult (*Release)(const S&) noexcept>
struct VmmTraits {
  using State = S;
  using Status = CUresult;
  static constexpr CUresult kOk = CUDA_SUCCESS;
  static bool held(const S& s) noexcept { return s.held(); }
  static CUresult release(const S& s) noexcept { return Release(s); }
};
using RangeTraits = VmmTraits<Range, free_range>;
using AllocationTraits = VmmTraits<Allocation, release_allocation>;
using MappedTraits = VmmTraits<Mapped, unmap>;

}  // namespace detail

// A reserved virtual address range (cuMemAddressReserve / cuMemAddressFree). No memory behind it.
class AddressRange {
 public:
  AddressRange() = default;
  AddressRange(std::size_t size, std::size_t alignment);

  CUdeviceptr base() const noexcept { return owner_.get().base; }
  std::size_t size() const noexcept { return owner_.get().size; }

  // Frees the range now and returns the driver's status. On success the owner is empty; on failure it
  // still owns the range, and its destructor tries again.
  CUresult free() noexcept { return owner_.release(); }

 private:
  UniqueHandle<detail::RangeTraits> owner_;
};

// Physical memory on one device (cuMemCreate / cuMemRelease). A handle, not a pointer.
class PhysicalAllocation {
 public:
  PhysicalAllocation() = default;
  PhysicalAllocation(int device, std::size_t size, CUmemAllocationHandleType handle_types = CU_MEM_HANDLE_TYPE_NONE);
  // Memory of any kind `prop` describes (vmm/memory_kind.hpp), used by GPU `device` (whose grants an
  // alias set of it makes).
  PhysicalAllocation(const CUmemAllocationProp& prop, std::size_t size, int device);

  CUmemGenericAllocationHandle handle() const noexcept { return owner_.get().handle; }
  std::size_t size() const noexcept { return owner_.get().size; }
  int device() const noexcept { return owner_.get().device; }

  // An allocation another process (or the fabric) shared: cuMemImportFromShareableHandle of
  // `shareable` (for a POSIX file descriptor, the descriptor cast to a pointer; for a fabric handle,
  // its address). The import holds its own reference: the exporter may release at any time.
  static PhysicalAllocation imported(void* shareable, CUmemAllocationHandleType type, std::size_t size, int device);

  // Releases the handle now and returns the driver's status (on failure the owner keeps the handle).
  // The guide allows this while mappings remain: the memory lives until its last mapping is gone.
  CUresult release() noexcept { return owner_.release(); }

 private:
  UniqueHandle<detail::AllocationTraits> owner_;
};

// `size` bytes of an allocation, starting `offset` bytes into it, mapped at `address`
// (cuMemMap / cuMemUnmap). Mapping grants no access: see AccessGrant.
class Mapping {
 public:
  Mapping() = default;
  Mapping(CUdeviceptr address, std::size_t size, const PhysicalAllocation& allocation, std::size_t offset);
  // A mapping of any generic allocation handle (a multicast object: vmm/multicast.hpp).
  Mapping(CUdeviceptr address, std::size_t size, CUmemGenericAllocationHandle handle, std::size_t offset);

  CUdeviceptr address() const noexcept { return owner_.get().address; }
  std::size_t size() const noexcept { return owner_.get().size; }
  std::size_t offset() const noexcept { return owner_.get().offset; }

  // Unmaps now and returns the driver's status. On success the owner is empty; on failure it still
  // owns the mapping, and its destructor tries again.
  CUresult unmap() noexcept { return owner_.release(); }

 private:
  UniqueHandle<detail::MappedTraits> owner_;
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

// A POSIX file descriptor for an allocation (cuMemExportToShareableHandle), which must have been created
// with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR among its handle types.
UniqueFd export_fd(CUmemGenericAllocationHandle handle);

// The properties of pinned memory on `device` that cuMemCreate and the granularity query take.
CUmemAllocationProp pinned_device_prop(int device, CUmemAllocationHandleType handle_types);

// The allocation granularity for pinned device memory on `device`.
std::size_t allocation_granularity(int device, bool recommended);

// `value` rounded up to a multiple of `granularity`.
constexpr std::size_t round_up(std::size_t value, std::size_t granularity) {
  return granularity == 0 ? value : (value + granularity - 1) / granularity * granularity;
}

}  // namespace vmmcheck::vmm
