#pragma once
// A surface and a linear mapping over the same physical memory. Surface objects take CUDA arrays only
// (api.surface_over_linear), but a CUDA array made without storage -- sparse (CUDA_ARRAY3D_SPARSE) or
// with deferred mapping (CUDA_ARRAY3D_DEFERRED_MAPPING) -- can be mapped onto a VMM allocation with
// cuMemMapArrayAsync, and the allocation mapped linearly as well (cuMemMap): then the surface and the
// linear mapping are two aliases of the same bytes.
//
// The array is 1024 x 1024 32-bit texels. Sparse: tile (tx, ty) is mapped at allocation offset
// (ty * tiles_x + tx) * tile_bytes. Deferred: the whole array is one "tile" at offset 0 (its footprint
// must be exactly its texels, no padding). Texel order inside a tile is the driver's, so a check that
// writes every texel of a tile and reads every word of the tile's bytes needs no more. Where the driver
// allows neither kind with surface load/store, or refuses to map a tile pool linearly, the constructor
// throws NotSupportedError with every status it met.
#include <cuda.h>

#include <cstddef>
#include <string>

#include "vmm/owners.hpp"

namespace vmmcheck::vmm {

class SparseSurfaceAlias {
 public:
  SparseSurfaceAlias(int device, CUstream stream);
  ~SparseSurfaceAlias();
  SparseSurfaceAlias(const SparseSurfaceAlias&) = delete;
  SparseSurfaceAlias& operator=(const SparseSurfaceAlias&) = delete;

  CUsurfObject surface() const noexcept { return surface_; }
  CUdeviceptr linear() const noexcept { return linear_.address(); }
  unsigned tile_width() const noexcept { return tile_width_; }    // texels
  unsigned tile_height() const noexcept { return tile_height_; }  // texels
  unsigned tiles_x() const noexcept { return kSide / tile_width_; }
  unsigned tiles_y() const noexcept { return kSide / tile_height_; }
  std::size_t tile_bytes() const noexcept { return std::size_t{tile_width_} * tile_height_ * 4; }
  const std::string& kind() const noexcept { return kind_; }  // "sparse" or "deferred mapping"

  static constexpr unsigned kSide = 1024;

 private:
  void map_array(CUmemOperationType op);
  void tear_down() noexcept;  // what the members do not undo themselves

  int device_;
  CUstream stream_;
  bool sparse_ = true;
  std::string kind_;
  unsigned tile_width_ = kSide, tile_height_ = kSide;
  // Released in the reverse of declaration: the linear mapping, the allocation, the range.
  AddressRange range_;
  PhysicalAllocation memory_;
  Mapping linear_;
  CUarray array_ = nullptr;
  bool array_mapped_ = false;
  CUsurfObject surface_ = 0;
};

}  // namespace vmmcheck::vmm
