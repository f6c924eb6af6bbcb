#pragma once
// One physical allocation mapped at several virtual addresses: the object every alias case runs on.
//
// Each view is its own reserved range with its own mapping and access grant. A view maps either the
// whole allocation or the allocation from an offset on, so location x of the allocation is reachable
// as view(i).address + x - view(i).offset for every view that covers it.
#include <cuda.h>

#include <cstddef>
#include <vector>

#include "vmm/owners.hpp"

namespace vmmcheck::vmm {

struct ViewSpec {
  std::size_t offset = 0;  // where in the allocation the view starts (a multiple of the granularity)
};

struct View {
  AddressRange range;
  Mapping mapping;
  AccessGrant grant;

  CUdeviceptr address() const noexcept { return mapping.address(); }
  std::size_t offset() const noexcept { return mapping.offset(); }
  std::size_t size() const noexcept { return mapping.size(); }
};

class AliasSet {
 public:
  // Allocates at least `min_size` bytes on `device` (rounded up to the granularity) and maps one view
  // per spec. On any failure, everything built so far is released before the error propagates.
  AliasSet(int device, std::size_t min_size, const std::vector<ViewSpec>& views);

  AliasSet(AliasSet&&) noexcept = default;
  AliasSet& operator=(AliasSet&&) noexcept = default;

  std::size_t granularity() const noexcept { return granularity_; }
  std::size_t size() const noexcept { return allocation_.size(); }
  int device() const noexcept { return allocation_.device(); }
  std::size_t view_count() const noexcept { return views_.size(); }
  const View& view(std::size_t i) const { return views_.at(i); }

  // The address of allocation byte `location` in view `i` (which must cover it).
  CUdeviceptr address_of(std::size_t i, std::size_t location) const;

 private:
  std::size_t granularity_ = 0;
  // Declared before views_: destroyed after them, so every view is unmapped before the release.
  PhysicalAllocation allocation_;
  std::vector<View> views_;
};

}  // namespace vmmcheck::vmm
