#include "vmm/alias_set.hpp"

#include <stdexcept>
#include <string>

namespace vmmcheck::vmm {
namespace {

View make_view(const PhysicalAllocation& allocation, std::size_t offset, std::size_t granularity) {
  const std::size_t size = allocation.size() - offset;
  AddressRange range(size, granularity);
  Mapping mapping(range.base(), size, allocation, offset);
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
    if (spec.offset % granularity_ != 0 || spec.offset >= allocation_.size()) {
      throw std::invalid_argument("alias view offset " + std::to_string(spec.offset) +
                                  " is not a granularity multiple inside the allocation");
    }
    views_.push_back(make_view(allocation_, spec.offset, granularity_));
  }
}

CUdeviceptr AliasSet::address_of(std::size_t i, std::size_t location) const {
  const View& v = view(i);
  if (location < v.offset() || location >= v.offset() + v.size()) {
    throw std::out_of_range("allocation byte " + std::to_string(location) + " is outside view " +
                            std::to_string(i));
  }
  return v.address() + (location - v.offset());
}

}  // namespace vmmcheck::vmm
