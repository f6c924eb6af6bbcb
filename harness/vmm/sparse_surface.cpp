#include "vmm/sparse_surface.hpp"

#include <string>
#include <vector>

#include "common/driver.hpp"
#include "common/error.hpp"

namespace vmmcheck::vmm {

SparseSurfaceAlias::SparseSurfaceAlias(int device, unsigned tiles_x, unsigned tiles_y, CUstream stream)
    : device_(device), stream_(stream), tiles_x_(tiles_x), tiles_y_(tiles_y) {
  const DriverApi& d = driver();
  CUdevice dev = 0;
  VMM_CHECK(d.cuDeviceGet(&dev, device));
  int sparse = 0;
  VMM_CHECK(d.cuDeviceGetAttribute(&sparse, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, dev));
  if (!sparse) throw NotSupportedError("the device has no sparse CUDA arrays (CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED = 0)");
  try {
    // The tile size comes from the array: make a one-tile probe first, then the real one.
    CUDA_ARRAY3D_DESCRIPTOR desc = {};
    desc.Format = CU_AD_FORMAT_UNSIGNED_INT32;
    desc.NumChannels = 1;
    desc.Flags = CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_SURFACE_LDST;
    desc.Width = 1024;
    desc.Height = 1024;
    VMM_CHECK(d.cuArray3DCreate(&array_, &desc));
    CUDA_ARRAY_SPARSE_PROPERTIES props = {};
    VMM_CHECK(d.cuArrayGetSparseProperties(&props, array_));
    VMM_CHECK(d.cuArrayDestroy(array_));
    array_ = nullptr;
    tile_width_ = props.tileExtent.width;
    tile_height_ = props.tileExtent.height;
    if (tile_width_ == 0 || tile_height_ == 0) throw NotSupportedError("the driver reported a sparse tile of 0 texels");
    desc.Width = std::size_t{tiles_x_} * tile_width_;
    desc.Height = std::size_t{tiles_y_} * tile_height_;
    VMM_CHECK(d.cuArray3DCreate(&array_, &desc));
    CUDA_ARRAY_MEMORY_REQUIREMENTS need = {};
    VMM_CHECK(d.cuArrayGetMemoryRequirements(&need, array_, dev));
    if (need.alignment != 0 && tile_bytes() % need.alignment != 0)
      throw NotSupportedError("a sparse tile (" + std::to_string(tile_bytes()) + " bytes) is not a multiple of the array's memory alignment (" +
                              std::to_string(need.alignment) + ")");

    const std::size_t g = allocation_granularity(device, false);
    const std::size_t bytes = round_up(tile_bytes() * tiles_x_ * tiles_y_, g);
    range_ = AddressRange(bytes, g);
    memory_ = PhysicalAllocation(device, bytes);
    linear_ = Mapping(range_.base(), bytes, memory_, 0);
    AccessGrant(linear_, device, Access::ReadWrite);
    map_tiles(CU_MEM_OPERATION_TYPE_MAP);
    tiles_mapped_ = true;

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

void SparseSurfaceAlias::map_tiles(CUmemOperationType op) {
  std::vector<CUarrayMapInfo> tiles;
  for (unsigned ty = 0; ty < tiles_y_; ++ty) {
    for (unsigned tx = 0; tx < tiles_x_; ++tx) {
      CUarrayMapInfo m = {};
      m.resourceType = CU_RESOURCE_TYPE_ARRAY;
      m.resource.array = array_;
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
        m.offset = (std::size_t{ty} * tiles_x_ + tx) * tile_bytes();
      }
      m.deviceBitMask = 1u << device_;
      tiles.push_back(m);
    }
  }
  VMM_CHECK(driver().cuMemMapArrayAsync(tiles.data(), static_cast<unsigned>(tiles.size()), stream_));
  VMM_CHECK(driver().cuStreamSynchronize(stream_));
}

void SparseSurfaceAlias::tear_down() noexcept {
  const DriverApi& d = driver();
  if (surface_) d.cuSurfObjectDestroy(surface_);
  surface_ = 0;
  if (tiles_mapped_) {
    try {
      map_tiles(CU_MEM_OPERATION_TYPE_UNMAP);
    } catch (...) {
    }
    tiles_mapped_ = false;
  }
  if (array_) d.cuArrayDestroy(array_);
  array_ = nullptr;
}

}  // namespace vmmcheck::vmm
