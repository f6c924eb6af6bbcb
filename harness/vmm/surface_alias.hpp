#pragma once
// A surface and a linear mapping over the same physical memory: the alias proxy.surface checks.
//
// A surface object takes a CUDA array only (api.surface_over_linear), so the alias is made the other
// way round: one VMM allocation, mapped linearly with cuMemMap, and a kSide x kSide array of 32-bit
// texels whose storage is that allocation's bytes. Two ways put the array there (patterns::SurfaceBacking):
//   import     the allocation is made exportable as a POSIX file descriptor; the descriptor is imported
//              as external memory (cuImportExternalMemory, OPAQUE_FD) and the array is mapped from it at
//              offset 0 (cuExternalMemoryGetMappedMipmappedArray, CUDA_ARRAY3D_SURFACE_LDST).
//   array_map  an array without storage of its own -- sparse (CUDA_ARRAY3D_SPARSE) or with deferred
//              mapping (CUDA_ARRAY3D_DEFERRED_MAPPING) -- mapped onto the allocation with
//              cuMemMapArrayAsync; sparse tile (tx, ty) at offset (ty * tiles_x + tx) * tile bytes.
// Where each texel lies in the bytes is the driver's choice (block linear, say): the runner measures it
// (harness/run/kit/surface_layout.hpp) instead of assuming one. Where the driver refuses a step, the
// constructor throws NotSupportedError naming every status it met.
//
// Beside the surface, a texture object over the same array (texture(): what a litmus row's .texref of
// the surface's memory reads through, the texture proxy over surface memory), and on request more linear
// mappings of the allocation (view(i): a litmus row's physical aliases of the surface's memory).
#include <cuda.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "common/unique_handle.hpp"
#include "vocabulary/axes.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::vmm {

namespace detail {
// The driver objects behind a surface, each released through the driver table.
CUresult destroy_surface(CUsurfObject s) noexcept;
CUresult destroy_texture(CUtexObject t) noexcept;
CUresult destroy_array(CUarray a) noexcept;
CUresult destroy_mipmapped_array(CUmipmappedArray a) noexcept;
CUresult destroy_external_memory(CUexternalMemory m) noexcept;
}  // namespace detail

template <typename Handle, CUresult (*Destroy)(Handle)>
using DriverObject = UniqueHandle<ReleasedBy<Handle, CUresult, CUDA_SUCCESS, Destroy>>;

using SurfaceObject = DriverObject<CUsurfObject, detail::destroy_surface>;
using TexObject = DriverObject<CUtexObject, detail::destroy_texture>;
using ArrayObject = DriverObject<CUarray, detail::destroy_array>;
using MipmappedArrayObject = DriverObject<CUmipmappedArray, detail::destroy_mipmapped_array>;
using ExternalMemoryObject = DriverObject<CUexternalMemory, detail::destroy_external_memory>;

class SurfaceAlias {
 public:
  static constexpr unsigned kSide = 1024;  // texels per row, and rows

  // `stream` carries cuMemMapArrayAsync (array_map only).
  SurfaceAlias(patterns::SurfaceBacking backing, int device, CUstream stream);
  ~SurfaceAlias();
  SurfaceAlias(const SurfaceAlias&) = delete;
  SurfaceAlias& operator=(const SurfaceAlias&) = delete;

  CUsurfObject surface() const noexcept { return surface_.get(); }
  // A texture object over the array (point sampling, unnormalised coordinates, 32-bit texels read as
  // integers), made on first request; NotSupportedError where the driver refuses one over this array.
  CUtexObject texture();
  CUdeviceptr linear() const noexcept { return linear_.address(); }
  // The i-th linear mapping of the allocation: 0 is linear(); each further one is another cuMemMap of
  // the same allocation into a range of its own (a physical alias), made on first request.
  CUdeviceptr view(std::size_t i);
  std::size_t bytes() const noexcept { return linear_.size(); }  // what the linear mapping spans
  std::size_t texels() const noexcept { return std::size_t{kSide} * kSide; }
  // How the array got there: "imported external memory", "sparse array", "deferred-mapping array".
  const std::string& route() const noexcept { return route_; }

 private:
  void back_linear(const CUmemAllocationProp& prop, std::size_t bytes);  // the allocation, mapped and granted
  void import_array();
  void map_array_onto();
  void map_tiles(CUmemOperationType op);

  int device_;
  CUstream stream_;
  std::string route_;
  unsigned tile_width_ = kSide, tile_height_ = kSide;  // array_map: what one cuMemMapArrayAsync entry covers
  // A further linear mapping of the allocation, with its own range.
  struct ExtraView {
    AddressRange range;
    Mapping mapping;
  };

  // Declared so that destruction runs texture, surface, array (its tiles unmapped first, in
  // ~SurfaceAlias), mipmapped array, external memory, then the extra views, the linear mapping, the
  // allocation and the range.
  AddressRange range_;
  PhysicalAllocation memory_;
  Mapping linear_;
  std::vector<std::unique_ptr<ExtraView>> extra_views_;
  ExternalMemoryObject external_;
  MipmappedArrayObject mipmapped_;
  ArrayObject array_;  // array_map: the array this object made; import: none (the level belongs to mipmapped_)
  CUarray level_ = nullptr;  // the array the surface is made over
  bool tiles_mapped_ = false;
  SurfaceObject surface_;
  CUDA_RESOURCE_DESC resource_ = {};  // the array, as the surface and the texture take it
  TexObject texture_;
};

}  // namespace vmmcheck::vmm
