#include "run/operations.hpp"

#include "run/checked_words.hpp"

namespace vmmcheck::run {

Values values_for(const Budget& b, const std::string& case_name, std::uint32_t iteration) {
  const std::uint64_t h = case_seed(b, case_name, iteration);
  Values v{static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32) & ~1u};
  if (v.new_value == v.old_value) v.new_value ^= 0x80000000u;
  return v;
}

void reset_region(GpuSession& s, std::uint64_t words, std::uint32_t value) {
  fill(reinterpret_cast<CUdeviceptr>(s.words(patterns::View::Same)), words, value, s.work());
}

}  // namespace vmmcheck::run
