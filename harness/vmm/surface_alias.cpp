#include "vmm/surface_alias.hpp"

#include <cstdint>
#include <vector>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "common/unique_fd.hpp"

namespace vmmcheck::vmm {

namespace detail {
CUresult destroy_surface(CUsurfObject s) noexcept { return driver().cuSurfObjectDestroy(s); }
CUresult destroy_texture(CUtexObject t) noexcept { return driver().cuTexObjectDestroy(t); }
CUresult destroy_array(CUarray a) noexcept { return driver().cuArrayDestroy(a); }
CUresult destroy_mipmapped_array(CUmipmappedArray a) noexcept { return driver().cuMipmappedArrayDestroy(a); }
CUresult destroy_external_memory(CUexternalMemory m) noexcept { return driver().cuDestroyExternalMemory(m); }
}  // namespace detail

namespace {

std::string refused(const char* call, CUresult status) { return std::string(call) + " returned " + driver_error_name(status); }

// The array both routes make: kSide x kSide single-channel 32-bit texels that surfaces may load and store.
CUDA_ARRAY3D_DESCRIPTOR texel_array(unsigned flags) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Format = CU_AD_FORMAT_UNSIGNED_INT32;
  desc.NumChannels = 1;
  desc.Width = SurfaceAlias::kSide;
  desc.Height = SurfaceAlias::kSide;
  desc.Flags = flags | CUDA_ARRAY3D_SURFACE_LDST;
  return desc;
}

}  // namespace

SurfaceAlias::SurfaceAlias(patterns::SurfaceBacking backing, int device, CUstream stream) : device_(device), stream_(stream) {
  try {
    if (backing == patterns::SurfaceBacking::Import)
      import_array();
    else
      map_array_onto();
    resource_.resType = CU_RESOURCE_TYPE_ARRAY;
    resource_.res.array.hArray = level_;
    CUsurfObject s = 0;
    VMM_CHECK(driver().cuSurfObjectCreate(&s, &resource_));
    surface_ = SurfaceObject(s);
  } catch (...) {
    if (tiles_mapped_) map_tiles(CU_MEM_OPERATION_TYPE_UNMAP);  // the members go after this, in order
    throw;
  }
}

SurfaceAlias::~SurfaceAlias() {
  texture_.release();
  surface_.release();
  if (tiles_mapped_) map_tiles(CU_MEM_OPERATION_TYPE_UNMAP);
}

CUtexObject SurfaceAlias::texture() {
  if (texture_.held()) return texture_.get();
  CUDA_TEXTURE_DESC tex = {};
  tex.addressMode[0] = tex.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  tex.filterMode = CU_TR_FILTER_MODE_POINT;
  tex.flags = CU_TRSF_READ_AS_INTEGER;  // and unnormalised coordinates: no CU_TRSF_NORMALIZED_COORDINATES
  CUtexObject t = 0;
  if (const CUresult st = driver().cuTexObjectCreate(&t, &resource_, &tex, nullptr); st != CUDA_SUCCESS)
    throw NotSupportedError("no texture object over the surface's array (" + route_ + "): " + refused("cuTexObjectCreate", st));
  texture_ = TexObject(t);
  return t;
}

CUdeviceptr SurfaceAlias::view(std::size_t i) {
  if (i == 0) return linear();
  while (extra_views_.size() < i) {
    auto v = std::make_unique<ExtraView>();
    v->range = AddressRange(bytes(), allocation_granularity(device_, false));
    v->mapping = Mapping(v->range.base(), bytes(), memory_, 0);
    AccessGrant(v->mapping, device_, Access::ReadWrite);
    extra_views_.push_back(std::move(v));
  }
  return extra_views_[i - 1]->mapping.address();
}

void SurfaceAlias::back_linear(const CUmemAllocationProp& prop, std::size_t bytes) {
  const std::size_t g = allocation_granularity(device_, false);
  range_ = AddressRange(bytes, g);
  memory_ = PhysicalAllocation(prop, bytes, device_);
  linear_ = Mapping(range_.base(), bytes, memory_, 0);
  AccessGrant(linear_, device_, Access::ReadWrite);
}

// The CUDA driver API's external-memory interop, pointed at a VMM allocation of its own: the descriptor
// cuMemExportToShareableHandle gives is imported like any opaque descriptor, and on success the driver
// owns it ("ownership of the file descriptor is transferred to the CUDA driver").
void SurfaceAlias::import_array() {
  const DriverApi& d = driver();
  route_ = "imported external memory";
  try {
    back_linear(pinned_device_prop(device_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
                round_up(texels() * sizeof(std::uint32_t), allocation_granularity(device_, false)));
  } catch (const CudaError& e) {
    throw NotSupportedError(std::string("no exportable allocation to import: ") + e.what());
  }
  UniqueFd exported = export_fd(memory_.handle());

  CUDA_EXTERNAL_MEMORY_HANDLE_DESC handle = {};
  handle.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  handle.handle.fd = exported.get();
  handle.size = bytes();
  CUexternalMemory external = nullptr;
  if (const CUresult st = d.cuImportExternalMemory(&external, &handle); st != CUDA_SUCCESS)
    throw NotSupportedError("the allocation's exported descriptor cannot be imported as external memory: " +
                            refused("cuImportExternalMemory(OPAQUE_FD)", st));
  exported.release();
  external_ = ExternalMemoryObject(external);

  CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC array = {};
  array.offset = 0;
  array.arrayDesc = texel_array(0);
  array.numLevels = 1;
  CUmipmappedArray mipmapped = nullptr;
  if (const CUresult st = d.cuExternalMemoryGetMappedMipmappedArray(&mipmapped, external, &array); st != CUDA_SUCCESS)
    throw NotSupportedError("no surface array over the imported allocation: " +
                            refused("cuExternalMemoryGetMappedMipmappedArray(SURFACE_LDST)", st));
  mipmapped_ = MipmappedArrayObject(mipmapped);
  VMM_CHECK(d.cuMipmappedArrayGetLevel(&level_, mipmapped, 0));
}

// A sparse array where the driver allows one with surface load/store, else one with deferred mapping,
// mapped onto a tile pool -- or, where the driver will not map a tile pool linearly, an ordinary
// allocation.
void SurfaceAlias::map_array_onto() {
  const DriverApi& d = driver();
  CUdevice dev = 0;
  VMM_CHECK(d.cuDeviceGet(&dev, device_));
  std::string why;
  auto note = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  struct Kind {
    CUdevice_attribute attribute;
    unsigned flag;
    const char* name;
  };
  bool sparse = false;
  for (const Kind k : {Kind{CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, CUDA_ARRAY3D_SPARSE, "sparse array"},
                       Kind{CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, CUDA_ARRAY3D_DEFERRED_MAPPING,
                            "deferred-mapping array"}}) {
    int supported = 0;
    VMM_CHECK(d.cuDeviceGetAttribute(&supported, k.attribute, dev));
    if (!supported) {
      note(std::string(k.name) + "s: not reported by the device");
      continue;
    }
    const CUDA_ARRAY3D_DESCRIPTOR desc = texel_array(k.flag);
    CUarray a = nullptr;
    if (const CUresult st = d.cuArray3DCreate(&a, &desc); st != CUDA_SUCCESS) {
      note(refused((std::string("cuArray3DCreate(") + k.name + " | SURFACE_LDST)").c_str(), st));
      continue;
    }
    array_ = ArrayObject(a);
    level_ = a;
    sparse = k.flag == CUDA_ARRAY3D_SPARSE;
    route_ = k.name;
    break;
  }
  if (!array_.held()) throw NotSupportedError("no surface array can be backed by VMM memory here: " + why);

  const std::size_t footprint = texels() * sizeof(std::uint32_t);
  if (sparse) {
    CUDA_ARRAY_SPARSE_PROPERTIES props = {};
    VMM_CHECK(d.cuArrayGetSparseProperties(&props, level_));
    tile_width_ = props.tileExtent.width;
    tile_height_ = props.tileExtent.height;
    if (tile_width_ == 0 || tile_height_ == 0 || kSide % tile_width_ || kSide % tile_height_ || props.miptailSize)
      throw NotSupportedError("a sparse tile of " + std::to_string(tile_width_) + " x " + std::to_string(tile_height_) +
                              " texels does not tile a " + std::to_string(kSide) + "-texel square exactly");
  } else {
    CUDA_ARRAY_MEMORY_REQUIREMENTS need = {};
    VMM_CHECK(d.cuArrayGetMemoryRequirements(&need, level_, dev));
    if (need.size > round_up(footprint, allocation_granularity(device_, false)))
      throw NotSupportedError("the deferred-mapping array needs " + std::to_string(need.size) + " bytes, more than the " +
                              std::to_string(footprint) + " bytes of its texels rounded to the granularity");
  }

  std::string tried;
  for (const bool tile_pool : {true, false}) {
    try {
      CUmemAllocationProp prop = pinned_device_prop(device_, CU_MEM_HANDLE_TYPE_NONE);
      if (tile_pool) prop.allocFlags.usage = CU_MEM_CREATE_USAGE_TILE_POOL;
      back_linear(prop, round_up(footprint, allocation_granularity(device_, false)));
      map_tiles(CU_MEM_OPERATION_TYPE_MAP);
      tiles_mapped_ = true;
      return;
    } catch (const CudaError& e) {
      tried += std::string(tried.empty() ? "" : "; ") + (tile_pool ? "a tile pool: " : "an ordinary allocation: ") + e.what();
      linear_ = Mapping();
      memory_ = PhysicalAllocation();
      range_ = AddressRange();
    }
  }
  throw NotSupportedError("the " + route_ + " and a linear mapping cannot share an allocation here: " + tried +
                          (why.empty() ? "" : " (before that: " + why + ")"));
}

// Maps (or unmaps) every tile of the array onto the allocation; a deferred-mapping array is one tile.
// Unmapping reports nothing: it runs on the way out, where there is nothing left to do about it.
void SurfaceAlias::map_tiles(CUmemOperationType op) {
  std::vector<CUarrayMapInfo> maps;
  const unsigned tiles_x = kSide / tile_width_;
  for (unsigned ty = 0; ty < kSide / tile_height_; ++ty) {
    for (unsigned tx = 0; tx < tiles_x; ++tx) {
      CUarrayMapInfo m = {};
      m.resourceType = CU_RESOURCE_TYPE_ARRAY;
      m.resource.array = level_;
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
        m.offset = (std::size_t{ty} * tiles_x + tx) * tile_width_ * tile_height_ * sizeof(std::uint32_t);
      }
      m.deviceBitMask = 1u << device_;
      maps.push_back(m);
    }
  }
  const DriverApi& d = driver();
  if (op == CU_MEM_OPERATION_TYPE_UNMAP) {
    if (d.cuMemMapArrayAsync(maps.data(), static_cast<unsigned>(maps.size()), stream_) == CUDA_SUCCESS)
      d.cuStreamSynchronize(stream_);
    tiles_mapped_ = false;
    return;
  }
  VMM_CHECK(d.cuMemMapArrayAsync(maps.data(), static_cast<unsigned>(maps.size()), stream_));
  VMM_CHECK(d.cuStreamSynchronize(stream_));
}

}  // namespace vmmcheck::vmm
