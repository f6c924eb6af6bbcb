#include "vmm/alias_set.hpp"

#include <stdexcept>
#include <string>

namespace vmmcheck::vmm {
namespace {

View make_view(const PhysicalAllocation& allocation, std::size_t range_offset, std::size_t granularity) {
  AddressRange range(range_offset + allocation.size(), granularity);
  Mapping mapping(range.base() + range_offset, allocation.size(), allocation, 0);
  AccessGrant grant(mapping, allocation.device(), Access::ReadWrite);
  // If AccessGrant threw, `mapping` is unmapped and `range` freed here, in that order.
  return View{std::move(range), std::move(mapping), grant};
}

}  // namespace

AliasSet::AliasSet(int device, std::size_t min_size, const std::vector<ViewSpec>& views) {
  granularity_ = allocation_granularity(device, /*recommended=*/false);
  allocation_ = PhysicalAllocation(device, round_up(min_size, granularity_));
  views_.reserve(views.size());
  for (const ViewSpec& spec : views) {
    if (spec.range_offset % granularity_ != 0)
      throw std::invalid_argument("alias view range offset " + std::to_string(spec.range_offset) +
                                  " is not a multiple of the granularity");
    views_.push_back(make_view(allocation_, spec.range_offset, granularity_));
  }
}

CUdeviceptr AliasSet::address_of(std::size_t i, std::size_t location) const {
  const View& v = view(i);
  if (location >= v.size())
    throw std::out_of_range("allocation byte " + std::to_string(location) + " is outside the allocation");
  return v.address() + location;
}

}  // namespace vmmcheck::vmm
