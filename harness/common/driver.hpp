#pragma once
// The CUDA driver API, reached through a table of entry points rather than by linking libcuda.
//
// Why: a machine without an NVIDIA driver has no libcuda.so.1, and a binary linked against it would not
// even start there; vmmcheck must still list and explain cases and exit 77 from `run`. The table also
// lets CPU tests substitute a fake driver to check rollback and release order of the VMM owners.
#include <cuda.h>

namespace vmmcheck {

// X-macro of every driver entry point vmmcheck uses.
#define VMMCHECK_DRIVER_FUNCTIONS(X)         \
  X(cuGetErrorName)                          \
  X(cuDriverGetVersion)                      \
  X(cuDeviceGet)                             \
  X(cuDeviceGetCount)                        \
  X(cuDeviceGetName)                         \
  X(cuDeviceGetAttribute)                    \
  X(cuDeviceCanAccessPeer)                   \
  X(cuDeviceTotalMem)                        \
  X(cuMemGetAllocationGranularity)           \
  X(cuMemGetAllocationPropertiesFromHandle)  \
  X(cuMemAddressReserve)                     \
  X(cuMemAddressFree)                        \
  X(cuMemCreate)                             \
  X(cuMemRelease)                            \
  X(cuMemMap)                                \
  X(cuMemUnmap)                              \
  X(cuMemSetAccess)                          \
  X(cuMemExportToShareableHandle)            \
  X(cuMemImportFromShareableHandle)          \
  X(cuMemRetainAllocationHandle)             \
  X(cuMemGetAccess)                          \
  X(cuMemGetAddressRange)                    \
  X(cuMemsetD32Async)                       \
  X(cuSurfObjectCreate)                      \
  X(cuSurfObjectDestroy)                     \
  X(cuTexObjectCreate)                       \
  X(cuTexObjectDestroy)                      \
  X(cuTensorMapEncodeTiled)                  \
  X(cuArray3DCreate)                         \
  X(cuArrayDestroy)                          \
  X(cuArrayGetSparseProperties)              \
  X(cuArrayGetMemoryRequirements)            \
  X(cuMemMapArrayAsync)                      \
  X(cuImportExternalMemory)                  \
  X(cuDestroyExternalMemory)                 \
  X(cuExternalMemoryGetMappedMipmappedArray) \
  X(cuMipmappedArrayGetLevel)                \
  X(cuMipmappedArrayDestroy)                 \
  X(cuStreamSynchronize)

struct DriverApi {
#define VMMCHECK_DECLARE_MEMBER(name) decltype(&::name) name = nullptr;
  VMMCHECK_DRIVER_FUNCTIONS(VMMCHECK_DECLARE_MEMBER)
#undef VMMCHECK_DECLARE_MEMBER
};

// The driver table in use. The first call resolves the real driver through the CUDA runtime; it throws
// NotSupportedError when no usable driver is installed.
const DriverApi& driver();

// One driver entry point, as of the driver `version` (e.g. 12000); false (and *slot null) when the driver
// has none. For entry points kept out of the table on purpose (the multicast calls: vmm/multicast.cpp).
bool resolve_driver_entry_point(const char* symbol, void** slot, int version);

// Tests only: use `fake` (or, with nullptr, the real driver again) for every later driver() call.
void set_driver_for_testing(const DriverApi* fake);

// The driver's name for a CUresult, or a fallback when the driver is not available.
const char* driver_error_name(int result);

}  // namespace vmmcheck
