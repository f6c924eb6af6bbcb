#include "run/kit/peer_state.hpp"

#include <stdexcept>
#include <string>

#include "common/error.hpp"
#include "kernels/operations.hpp"
#include "run/kit/checked_words.hpp"

namespace vmmcheck::run {

PeerState::PeerState(int device) : device_(device) {
  CUDA_CHECK(cudaSetDevice(device));
  stream_ = Stream::create();
  sink_ = DeviceBuffer<std::uint32_t>(1);
  counts_.emplace(stream_);
}

nlohmann::json PeerState::counted(bool wait_event, std::optional<std::uint32_t> raise,
                                  const std::function<void(unsigned long long*)>& launch) {
  if (wait_event) {
    if (!event.get()) throw std::runtime_error("no interprocess event was opened");
    CUDA_CHECK(cudaStreamWaitEvent(stream_, event, 0));
  }
  if (raise) {
    if (!latch) throw std::runtime_error("no latch page was shared");
    kernels::launch_mark(latch->words(), *raise, stream_);
  }
  launch(counts_->get());
  return {{"bins", nlohmann::json(counts_->take(stream_))}};
}

void PeerState::map_import(vmm::PhysicalAllocation a, const std::vector<vmm::ViewSpec>& views) {
  imported_.reset();
  imported_.emplace(std::move(a), vmm::allocation_granularity(device_, false), views);
}

std::uint32_t* PeerState::view(int index) const {
  if (!imported_) throw std::runtime_error("nothing is imported yet");
  return words_at(imported_->view(static_cast<std::size_t>(index)).address);
}

}  // namespace vmmcheck::run
