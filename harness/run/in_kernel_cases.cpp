// Runners for the in-kernel families: both accesses of an instance happen inside one launch, and one
// launch runs one instance per resident thread per round.
#include <numeric>

#include "common/error.hpp"
#include "litmus.hpp"
#include "run/session.hpp"

namespace vmmcheck::run {
namespace {

kernels::LoadKind load_kind(const std::string& token) {
  if (token == "volatile") return kernels::LoadKind::Volatile;
  if (token == "relaxed_gpu") return kernels::LoadKind::RelaxedGpu;
  if (token == "acquire_gpu") return kernels::LoadKind::AcquireGpu;
  if (token == "nc") return kernels::LoadKind::NonCoherent;
  return kernels::LoadKind::Weak;
}

kernels::ScopeKind scope_kind(const std::string& token) {
  if (token == "cta") return kernels::ScopeKind::Cta;
  if (token == "sys") return kernels::ScopeKind::Sys;
  return kernels::ScopeKind::Gpu;
}

// A fresh co-prime placement of `n` instances for one launch.
kernels::Placement placement_for(std::uint64_t seed, std::uint32_t n) {
  kernels::Placement p;
  std::uint64_t stride = (seed % n) | 1u;
  while (std::gcd<std::uint64_t, std::uint64_t>(stride, n) != 1) stride += 2;
  p.memory_stride = static_cast<std::uint32_t>(stride);
  p.memory_offset = static_cast<std::uint32_t>((seed >> 32) % n);
  p.lane_stride = static_cast<std::uint32_t>((seed >> 16) | 1u);  // odd: co-prime with a power-of-two block
  p.seed = seed;
  return p;
}

std::uint32_t rounds_for(const Budget& b, std::uint32_t instances_per_round) {
  const std::uint64_t per_launch = (b.instances + b.iterations - 1) / b.iterations;
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (per_launch + instances_per_round - 1) / instances_per_round));
}

// Runs `launch(iteration, value_base)` for every iteration, timing the launches with events.
template <typename Launch>
void timed_launches(GpuSession& s, std::uint32_t rounds, CaseResult& r, Launch launch) {
  cudaStream_t stream = s.stream(0);
  float total_ms = 0;
  for (std::uint32_t it = 0; it < s.budget().iterations; ++it) {
    CUDA_CHECK(cudaEventRecord(s.event(0), stream));
    launch(it, it * rounds);
    CUDA_CHECK(cudaEventRecord(s.event(1), stream));
    CUDA_CHECK(cudaEventSynchronize(s.event(1)));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, s.event(0), s.event(1)));
    total_ms += ms;
  }
  r.gpu_seconds = total_ms / 1000.0;
  s.read_histogram(r.histogram);
}

}  // namespace

void run_same_thread(GpuSession& s, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  kernels::SameThreadArgs a;
  a.write_view = s.words(ViewId::A);
  a.read_view = s.words(view_of(c.axis("view")));
  a.load = load_kind(c.axis("load"));
  a.proxy_fence = c.axis("fence") == "proxy_alias";
  a.stress = s.stress();
  a.histogram = s.histogram();
  a.sink = s.sink();
  const kernels::LaunchShape shape = kernels::same_thread_shape(a, static_cast<int>(b.threads_per_block));
  const std::uint32_t n = shape.instances();
  a.rounds = rounds_for(b, n);
  // Every word starts at 0; round r of launch i writes i * rounds + r + 1, so values only grow.
  kernels::launch_fill(s.words(ViewId::A), n, 0, s.stream(0));
  timed_launches(s, a.rounds, r, [&](std::uint32_t it, std::uint32_t base) {
    a.value_base = base;
    a.placement = placement_for(case_seed(b, c.name, it), n);
    kernels::launch_same_thread(a, shape, s.stream(0));
  });
  r.instances = static_cast<std::uint64_t>(n) * a.rounds * b.iterations;
}

void run_message_passing(GpuSession& s, const model::Case& c, CaseResult& r) {
  const Budget& b = s.budget();
  const std::string& fence = c.axis("fence");
  kernels::MessagePassingArgs a;
  a.scope = scope_kind(c.axis("scope"));
  a.writer_fence = fence == "writer" || fence == "both";
  a.reader_fence = fence == "reader" || fence == "both";
  const kernels::LaunchShape shape = kernels::message_passing_shape(a, static_cast<int>(b.threads_per_block));
  const std::uint32_t n = shape.instances();
  // Data words first, flag words after them (in another part of the allocation).
  const std::uint64_t flag_offset = (n + 1023u) / 1024u * 1024u;
  a.data_write = s.words(ViewId::A);
  a.flag_write = s.words(ViewId::A) + flag_offset;
  a.data_read = s.words(view_of(c.axis("data")));
  a.flag_read = s.words(view_of(c.axis("flag"))) + flag_offset;
  a.spin_timeout_ns = static_cast<std::uint64_t>(b.spin_timeout_ms * 1e6);
  a.stress = s.stress();
  a.histogram = s.histogram();
  a.rounds = rounds_for(b, n);
  kernels::launch_fill(s.words(ViewId::A), flag_offset + n, 0, s.stream(0));
  timed_launches(s, a.rounds, r, [&](std::uint32_t it, std::uint32_t base) {
    a.value_base = base;
    a.placement = placement_for(case_seed(b, c.name, it), n);
    kernels::launch_message_passing(a, shape, s.stream(0));
  });
  r.instances = static_cast<std::uint64_t>(n) * a.rounds * b.iterations;
}

}  // namespace vmmcheck::run
