#pragma once
// A surface and a linear mapping over the same physical memory. Surface objects take CUDA arrays only
// (api.surface_over_linear), but a sparse CUDA array's tiles can be mapped onto a VMM allocation
// (cuMemMapArrayAsync) -- and the allocation mapped linearly as well (cuMemMap): then the surface and the
// linear mapping are two aliases of the same bytes. Tile (tx, ty) is mapped at allocation offset
// (ty * tiles_x + tx) * tile_bytes, so a tile's texels are the tile_bytes bytes there, in an order the
// driver does not document; a check that writes every texel of a tile needs no more.
#include <cuda.h>

#include <cstddef>

#include "vmm/owners.hpp"

namespace vmmcheck::vmm {

class SparseSurfaceAlias {
 public:
  // A tiles_x x tiles_y-tile array of 32-bit texels on `device`, its tiles mapped onto one allocation that
  // is also mapped at linear() and granted read-write. Throws NotSupportedError without sparse arrays.
  SparseSurfaceAlias(int device, unsigned tiles_x, unsigned tiles_y, CUstream stream);
  ~SparseSurfaceAlias();
  SparseSurfaceAlias(const SparseSurfaceAlias&) = delete;
  SparseSurfaceAlias& operator=(const SparseSurfaceAlias&) = delete;

  CUsurfObject surface() const noexcept { return surface_; }
  CUdeviceptr linear() const noexcept { return linear_.address(); }
  unsigned tile_width() const noexcept { return tile_width_; }    // texels
  unsigned tile_height() const noexcept { return tile_height_; }  // texels
  unsigned tiles_x() const noexcept { return tiles_x_; }
  unsigned tiles_y() const noexcept { return tiles_y_; }
  std::size_t tile_bytes() const noexcept { return std::size_t{tile_width_} * tile_height_ * 4; }

 private:
  void map_tiles(CUmemOperationType op);  // every tile, mapped or unmapped, in one call
  void tear_down() noexcept;              // what the members do not undo themselves

  int device_;
  CUstream stream_;
  unsigned tiles_x_, tiles_y_, tile_width_ = 0, tile_height_ = 0;
  // Released in the reverse of declaration: the linear mapping, the allocation, the range.
  AddressRange range_;
  PhysicalAllocation memory_;
  Mapping linear_;
  CUarray array_ = nullptr;
  bool tiles_mapped_ = false;
  CUsurfObject surface_ = 0;
};

}  // namespace vmmcheck::vmm
