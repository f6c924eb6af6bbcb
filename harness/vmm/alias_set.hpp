#pragma once
// One physical allocation mapped at several virtual addresses: the object every alias case runs on.
//
// Each view is its own reserved range with its own mapping and access grant, and maps the whole
// allocation: either at the start of its range, or `range_offset` bytes into a larger range, so the
// same byte sits at a different offset from its range's start. (cuMemMap's own `offset` into the
// allocation must be zero: drivers return CUDA_ERROR_NOT_SUPPORTED otherwise -- seen on an H200 with
// driver 580 / CUDA 13.0.)
//
// Release order, whole (docs/design.md, "Owners and release order"): every mapping is unmapped, last
// view first; then the allocation is released; then every range is freed, last view first. A
// constructor that fails half-way unwinds what it built in the same order of kinds (unmaps, release,
// frees), each kind in the order its vector destroys its elements.
#include <cuda.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "vmm/owners.hpp"

namespace vmmcheck::vmm {

struct ViewSpec {
  std::size_t range_offset = 0;  // where in its reserved range the allocation is mapped (granularity multiple)
  // The devices granted read-write access; unset: the allocation's own device; empty: none (mapped only).
  std::optional<std::vector<int>> grant_to;
};

// Where one view sits.
struct View {
  CUdeviceptr range_base = 0;  // its reserved range
  CUdeviceptr address = 0;     // allocation byte 0 through this view
  std::size_t size = 0;        // the allocation's size
};

class AliasSet {
 public:
  // Allocates at least `min_size` bytes on `device` (rounded up to the granularity) and maps one view
  // per spec. On any failure, everything built so far is released before the error propagates.
  AliasSet(int device, std::size_t min_size, const std::vector<ViewSpec>& views);
  // Views of an allocation made elsewhere (exportable, imported from another process): the set owns it
  // from here. Its size must be a multiple of `granularity`.
  AliasSet(PhysicalAllocation allocation, std::size_t granularity, const std::vector<ViewSpec>& views);
  ~AliasSet();

  AliasSet(AliasSet&&) noexcept = default;
  AliasSet& operator=(AliasSet&&) = delete;  // the release order of a replaced set would be the members'

  std::size_t granularity() const noexcept { return granularity_; }
  std::size_t size() const noexcept { return allocation_.size(); }
  int device() const noexcept { return allocation_.device(); }
  std::size_t view_count() const noexcept { return views_.size(); }
  const View& view(std::size_t i) const { return views_.at(i); }

  CUmemGenericAllocationHandle handle() const noexcept { return allocation_.handle(); }
  // Releases this set's handle on the allocation now, keeping every view (the guide allows it: the
  // memory lives while a mapping, or another process's import, holds it). The driver's status.
  CUresult release_handle() noexcept { return allocation_.release(); }

  // The address of allocation byte `location` in view `i`.
  CUdeviceptr address_of(std::size_t i, std::size_t location) const;

 private:
  std::size_t granularity_ = 0;
  // Declared in the reverse of the release order, so a constructor that throws unwinds in that order:
  // the mappings go first, then the allocation, then the ranges. (Grants go with their mappings.)
  std::vector<AddressRange> ranges_;
  PhysicalAllocation allocation_;
  std::vector<Mapping> mappings_;
  std::vector<View> views_;

  void map_views(const std::vector<ViewSpec>& views);
};

}  // namespace vmmcheck::vmm
