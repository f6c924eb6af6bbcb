#include "vmm/alias_set.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace vmmcheck::vmm {

AliasSet::AliasSet(int device, std::size_t min_size, const std::vector<ViewSpec>& views) {
  granularity_ = allocation_granularity(device, /*recommended=*/false);
  allocation_ = PhysicalAllocation(device, round_up(min_size, granularity_));
  map_views(views);
}

AliasSet::AliasSet(PhysicalAllocation allocation, std::size_t granularity, const std::vector<ViewSpec>& views)
    : granularity_(granularity), allocation_(std::move(allocation)) {
  if (granularity_ == 0 || allocation_.size() % granularity_ != 0)
    throw std::invalid_argument("an allocation of " + std::to_string(allocation_.size()) +
                                " bytes is not a multiple of the granularity " + std::to_string(granularity_));
  map_views(views);
}

void AliasSet::map_views(const std::vector<ViewSpec>& views) {
  ranges_.reserve(views.size());
  mappings_.reserve(views.size());
  for (const ViewSpec& spec : views) {
    if (spec.range_offset % granularity_ != 0)
      throw std::invalid_argument("alias view range offset " + std::to_string(spec.range_offset) +
                                  " is not a multiple of the granularity");
    ranges_.emplace_back(spec.range_offset + allocation_.size(), granularity_);
    const CUdeviceptr address = ranges_.back().base() + spec.range_offset;
    mappings_.emplace_back(address, allocation_.size(), allocation_, 0);
    for (const int device : spec.grant_to.value_or(std::vector<int>{allocation_.device()}))
      AccessGrant(mappings_.back(), device, Access::ReadWrite);
    views_.push_back({ranges_.back().base(), address, allocation_.size()});
  }
}

AliasSet::~AliasSet() {
  // Nothing useful to do about a failed release here; each owner that failed tries again as it goes.
  for (auto m = mappings_.rbegin(); m != mappings_.rend(); ++m) m->unmap();
  allocation_.release();
  for (auto r = ranges_.rbegin(); r != ranges_.rend(); ++r) r->free();
}

CUdeviceptr AliasSet::address_of(std::size_t i, std::size_t location) const {
  const View& v = view(i);
  if (location >= v.size) throw std::out_of_range("allocation byte " + std::to_string(location) + " is outside the allocation");
  return v.address + location;
}

}  // namespace vmmcheck::vmm
