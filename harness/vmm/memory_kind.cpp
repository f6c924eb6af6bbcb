#include "vmm/memory_kind.hpp"

#include <string>
#include <utility>

#include "common/driver.hpp"
#include "common/error.hpp"

namespace vmmcheck::vmm {
namespace {

int attribute(CUdevice_attribute a, int device) {
  CUdevice dev = 0;
  VMM_CHECK(driver().cuDeviceGet(&dev, device));
  int value = 0;
  VMM_CHECK(driver().cuDeviceGetAttribute(&value, a, dev));
  return value;
}

}  // namespace

MemoryKind memory_kind(patterns::Memory kind, int device) {
  MemoryKind k;
  k.prop = pinned_device_prop(device, CU_MEM_HANDLE_TYPE_NONE);
  switch (kind) {
    case patterns::Memory::Device: break;
    case patterns::Memory::Compressible:
      if (!attribute(CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, device))
        throw NotSupportedError("device " + std::to_string(device) +
                                " does not report compressible memory (CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 0)");
      k.prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
      break;
    case patterns::Memory::HostNuma: {
      if (!attribute(CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device))
        throw NotSupportedError("device " + std::to_string(device) + " does not map host NUMA memory with the VMM API "
                                "(CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 0)");
      const int node = attribute(CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, device);
      if (node < 0) throw NotSupportedError("device " + std::to_string(device) + " reports no host NUMA node (CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID = -1)");
      k.prop.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
      k.prop.location.id = node;
      break;
    }
  }
  VMM_CHECK(driver().cuMemGetAllocationGranularity(&k.granularity, &k.prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  return k;
}

void check_granted(patterns::Memory kind, const PhysicalAllocation& a) {
  if (kind != patterns::Memory::Compressible) return;
  CUmemAllocationProp got{};
  VMM_CHECK(driver().cuMemGetAllocationPropertiesFromHandle(&got, a.handle()));
  if (got.allocFlags.compressionType != CU_MEM_ALLOCATION_COMP_GENERIC)
    throw NotSupportedError("compressible memory was asked for and not granted (cuMemGetAllocationPropertiesFromHandle: "
                            "compressionType " + std::to_string(got.allocFlags.compressionType) + ")");
}

AliasSet alias_set_of(patterns::Memory kind, const MemoryKind& k, int device, std::size_t min_size, std::vector<ViewSpec> views) {
  PhysicalAllocation memory(k.prop, round_up(min_size, k.granularity), device);
  check_granted(kind, memory);
  for (ViewSpec& v : views) v.grant_to = std::vector<int>{device};
  return AliasSet(std::move(memory), k.granularity, views);
}

}  // namespace vmmcheck::vmm
