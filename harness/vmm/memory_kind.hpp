#pragma once
// The kinds of physical memory an alias set can be made of (patterns::Memory): device memory,
// compressible device memory, and host memory of the GPU's NUMA node. Each is cuMemCreate with other
// properties; the guide's alias rules apply to all of them (4.17.5.1, 4.17.5.2).
#include <cuda.h>

#include <cstddef>
#include <vector>

#include "vocabulary/axes.hpp"
#include "vmm/alias_set.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::vmm {

struct MemoryKind {
  CUmemAllocationProp prop{};
  std::size_t granularity = 0;  // the minimum granularity for these properties
};

// The properties of `kind` for memory that GPU `device` maps. Throws NotSupportedError naming the
// attribute when the device does not report the kind (CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED,
// CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, a host NUMA id).
MemoryKind memory_kind(patterns::Memory kind, int device);

// A request for compressible memory may be granted without compression (guide 4.17.5.2: check with
// cuMemGetAllocationPropertiesFromHandle). Throws NotSupportedError when `a` is not what `kind` asked for.
void check_granted(patterns::Memory kind, const PhysicalAllocation& a);

// An alias set of memory of `kind` (`k`, memory_kind's answer for `device`): at least `min_size` bytes,
// rounded up to the kind's granularity, checked as granted, and mapped as `views`, each granted read-write
// to `device` (host NUMA memory's own location is no device). The hand-written families, the rows and the
// access bench make theirs so.
AliasSet alias_set_of(patterns::Memory kind, const MemoryKind& k, int device, std::size_t min_size, std::vector<ViewSpec> views);

}  // namespace vmmcheck::vmm
