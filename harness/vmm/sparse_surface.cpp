#include "vmm/sparse_surface.hpp"

#include <vector>

#include "common/driver.hpp"
#include "common/error.hpp"

namespace vmmcheck::vmm {

SparseSurfaceAlias::SparseSurfaceAlias(int device, CUstream stream) : device_(device), stream_(stream) {
  const DriverApi& d = driver();
  CUdevice dev = 0;
  VMM_CHECK(d.cuDeviceGet(&dev, device));
  std::string refused;
  try {
    // The array: sparse where the driver allows it with surface load/store, else with deferred mapping.
    CUDA_ARRAY3D_DESCRIPTOR desc = {};
    desc.Format = CU_AD_FORMAT_UNSIGNED_INT32;
    desc.NumChannels = 1;
    desc.Width = kSide;
    desc.Height = kSide;
    struct Kind {
      CUdevice_attribute attribute;
      unsigned flag;
      const char* name;
    };
    for (const Kind k : {Kind{CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, CUDA_ARRAY3D_SPARSE, "sparse"},
                         Kind{CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, CUDA_ARRAY3D_DEFERRED_MAPPING,
                              "deferred mapping"}}) {
      int supported = 0;
      VMM_CHECK(d.cuDeviceGetAttribute(&supported, k.attribute, dev));
      if (!supported) {
        refused += std::string(refused.empty() ? "" : "; ") + k.name + " arrays: not reported by the device";
        continue;
      }
      desc.Flags = k.flag | CUDA_ARRAY3D_SURFACE_LDST;
      const CUresult st = d.cuArray3DCreate(&array_, &desc);
      if (st == CUDA_SUCCESS) {
        sparse_ = k.flag == CUDA_ARRAY3D_SPARSE;
        kind_ = k.name;
        break;
      }
      array_ = nullptr;
      refused += std::string(refused.empty() ? "" : "; ") + "cuArray3DCreate(" + k.name + " | SURFACE_LDST) returned " +
                 driver_error_name(st);
    }
    if (!array_) throw NotSupportedError("no surface array can be backed by VMM memory here: " + refused);

    std::size_t footprint = std::size_t{kSide} * kSide * 4;
    if (sparse_) {
      CUDA_ARRAY_SPARSE_PROPERTIES props = {};
      VMM_CHECK(d.cuArrayGetSparseProperties(&props, array_));
      tile_width_ = props.tileExtent.width;
      tile_height_ = props.tileExtent.height;
      if (tile_width_ == 0 || tile_height_ == 0 || kSide % tile_width_ || kSide % tile_height_ || props.miptailSize)
        throw NotSupportedError("a sparse tile of " + std::to_string(tile_width_) + " x " + std::to_string(tile_height_) +
                                " texels does not tile a " + std::to_string(kSide) + "-texel square exactly");
    } else {
      CUDA_ARRAY_MEMORY_REQUIREMENTS need = {};
      VMM_CHECK(d.cuArrayGetMemoryRequirements(&need, array_, dev));
      if (need.size != footprint)
        throw NotSupportedError("the deferred-mapping array needs " + std::to_string(need.size) + " bytes for " +
                                std::to_string(footprint) + " bytes of texels: its layout pads, and padding would read as stale data");
    }

    // The array's memory, mapped linearly too. cuMemMapArrayAsync asks for a tile pool
    // (CU_MEM_CREATE_USAGE_TILE_POOL); where the driver will not map a tile pool linearly, an ordinary
    // allocation is tried as the array's backing instead.
    const std::size_t g = allocation_granularity(device, false);
    const std::size_t bytes = round_up(footprint, g);
    std::string tried;
    for (const bool tile_pool : {true, false}) {
      try {
        CUmemAllocationProp prop = pinned_device_prop(device, CU_MEM_HANDLE_TYPE_NONE);
        if (tile_pool) prop.allocFlags.usage = CU_MEM_CREATE_USAGE_TILE_POOL;
        range_ = AddressRange(bytes, g);
        memory_ = PhysicalAllocation(prop, bytes, device);
        linear_ = Mapping(range_.base(), bytes, memory_, 0);
        AccessGrant(linear_, device, Access::ReadWrite);
        map_array(CU_MEM_OPERATION_TYPE_MAP);
        array_mapped_ = true;
        break;
      } catch (const CudaError& e) {
        tried += std::string(tried.empty() ? "" : "; ") + (tile_pool ? "a tile pool: " : "an ordinary allocation: ") + e.what();
        linear_ = Mapping();
        memory_ = PhysicalAllocation();
        range_ = AddressRange();
      }
    }
    if (!array_mapped_)
      throw NotSupportedError("the " + kind_ + " surface array and a linear mapping cannot share an allocation here: " + tried +
                              (refused.empty() ? "" : " (before that: " + refused + ")"));

    CUDA_RESOURCE_DESC res = {};
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = array_;
    VMM_CHECK(d.cuSurfObjectCreate(&surface_, &res));
  } catch (...) {
    tear_down();
    throw;
  }
}

SparseSurfaceAlias::~SparseSurfaceAlias() { tear_down(); }

void SparseSurfaceAlias::map_array(CUmemOperationType op) {
  std::vector<CUarrayMapInfo> maps;
  for (unsigned ty = 0; ty < tiles_y(); ++ty) {
    for (unsigned tx = 0; tx < tiles_x(); ++tx) {
      CUarrayMapInfo m = {};
      m.resourceType = CU_RESOURCE_TYPE_ARRAY;
      m.resource.array = array_;
      // A deferred-mapping array is mapped whole: the subresource is ignored (it is one tile here).
      m.subresourceType = CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_SPARSE_LEVEL;
      m.subresource.sparseLevel.offsetX = tx * tile_width_;
      m.subresource.sparseLevel.offsetY = ty * tile_height_;
      m.subresource.sparseLevel.extentWidth = tile_width_;
      m.subresource.sparseLevel.extentHeight = tile_height_;
      m.subresource.sparseLevel.extentDepth = 1;
      m.memOperationType = op;
      m.memHandleType = CU_MEM_HANDLE_TYPE_GENERIC;
      if (op == CU_MEM_OPERATION_TYPE_MAP) {
        m.memHandle.memHandle = memory_.handle();
        m.offset = (std::size_t{ty} * tiles_x() + tx) * tile_bytes();
      }
      m.deviceBitMask = 1u << device_;
      maps.push_back(m);
    }
  }
  VMM_CHECK(driver().cuMemMapArrayAsync(maps.data(), static_cast<unsigned>(maps.size()), stream_));
  VMM_CHECK(driver().cuStreamSynchronize(stream_));
}

void SparseSurfaceAlias::tear_down() noexcept {
  const DriverApi& d = driver();
  if (surface_) d.cuSurfObjectDestroy(surface_);
  surface_ = 0;
  if (array_mapped_) {
    try {
      map_array(CU_MEM_OPERATION_TYPE_UNMAP);
    } catch (...) {
    }
    array_mapped_ = false;
  }
  if (array_) d.cuArrayDestroy(array_);
  array_ = nullptr;
}

}  // namespace vmmcheck::vmm
