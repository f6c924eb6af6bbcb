#include "run/kit/surface_layout.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "run/kit/checked_words.hpp"

namespace vmmcheck::run {

SurfaceLayout::SurfaceLayout(const vmm::SurfaceAlias& alias, cudaStream_t stream)
    : word_of_(alias.texels()), span_words_(alias.bytes() / sizeof(std::uint32_t)) {
  constexpr std::uint32_t kNowhere = 0xFFFFFFFFu;  // no texel number: texels() < 2^32
  texels_ = {alias.surface(), words_at(alias.linear()), word_of_.get(), vmm::SurfaceAlias::kSide, vmm::SurfaceAlias::kSide};
  CUDA_CHECK(cudaMemsetAsync(word_of_.get(), 0xFF, word_of_.bytes(), stream));
  fill(alias.linear(), span_words_, kNowhere, stream);
  kernels::launch_surface_number(texels_, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  kernels::launch_surface_locate(texels_.linear, span_words_, texels_.count(), word_of_.get(), stream);

  std::vector<std::uint32_t> word_of(word_of_.count());
  CUDA_CHECK(cudaMemcpyAsync(word_of.data(), word_of_.get(), word_of_.bytes(), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<bool> taken(span_words_, false);
  std::uint64_t found = 0;
  for (const std::uint32_t w : word_of) {
    if (w == kNowhere || taken[w]) continue;
    taken[w] = true;
    ++found;
  }
  if (found != word_of.size())
    throw std::runtime_error("measuring the surface layout (" + alias.route() + "): " + std::to_string(found) + " of " +
                             std::to_string(word_of.size()) + " texels turned up at a word of their own in the linear "
                             "mapping after a kernel boundary and a host synchronisation");
}

}  // namespace vmmcheck::run
