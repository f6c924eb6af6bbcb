// Runner of proxy.async (patterns/async_copy/definition.hpp): one 4 KiB chunk of the session's region per CTA, 16
// bytes of it per thread, as many rounds per launch as the budget asks for.
#include "run/kit/support.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "patterns/async_copy/kernels.hpp"
#include "kernels/launch.hpp"
#include "kernels/operations.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {

void run_pattern(GpuSession& s, const patterns::AsyncCopy& def, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const int blocks = static_cast<int>(std::min<std::uint64_t>(s.region_words() / kernels::kAsyncChunkWords,
                                                              static_cast<std::uint64_t>(kernels::sm_count()) * 4));
  const std::uint32_t n = static_cast<std::uint32_t>(blocks) * kernels::kAsyncChunkWords;
  kernels::AsyncCopyArgs a;
  a.a = s.words(patterns::View::Same);
  a.view = s.words(def.view);
  a.direction = def.direction;
  using patterns::ProxyFences;
  a.alias_fence = (def.fences == ProxyFences::Alias || def.fences == ProxyFences::Both) && !mutated(Mutant::NoProxyFence);
  a.async_fence = (def.fences == ProxyFences::Async || def.fences == ProxyFences::Both) && !mutated(Mutant::NoAsyncFence);
  a.rounds = rounds_for(b, n);
  a.histogram = s.histogram();
  a.sink = s.sink();
  // tensor_to_shared: a tensor map over the view, the region as rows of kTensorRowWords words.
  CUtensorMap map{};
  if (def.direction == patterns::AsyncDirection::TensorToShared) {
    const cuuint64_t dims[2] = {kernels::kTensorRowWords, n / kernels::kTensorRowWords};
    const cuuint64_t row_bytes[1] = {kernels::kTensorRowWords * sizeof(std::uint32_t)};
    const cuuint32_t box[2] = {kernels::kAsyncSlotWords, 1};
    const cuuint32_t element_strides[2] = {1, 1};
    VMM_CHECK(driver().cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, a.view, dims, row_bytes, box,
                                              element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  }
  // Each thread copies its own slot: no placement to draw (the loop's goes unused).
  const LoopPlan plan{n, b.iterations, static_cast<std::uint64_t>(n) * a.rounds};
  launch_loop(
      s, c, r, plan,
      [&](std::uint64_t it, const kernels::Placement&) {
        a.value_base = static_cast<std::uint32_t>(it) * a.rounds;
        kernels::launch_fill(a.a, n, 0, s.work());
      },
      [&] { kernels::launch_async_copy(a, blocks, s.work(), &map); }, [](std::uint64_t) {});
}

// cp.async.bulk and the tensor-map copies are sm_90 instructions.
std::string why_not_here(const patterns::AsyncCopy&, const device::ProbeReport& machine, int device) {
  const device::DeviceCaps& d = machine.devices.at(static_cast<std::size_t>(device));
  if (d.cc_major >= 9) return "";
  return "cp.async.bulk needs compute capability 9.0 or newer; this GPU is " + std::to_string(d.cc_major) + "." +
         std::to_string(d.cc_minor);
}

}  // namespace vmmcheck::run
