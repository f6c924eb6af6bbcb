#pragma once
// Host-side interface of the litmus kernels: parameter blocks and launch functions. No device code here;
// harness code includes this header and links the kernels library.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace vmmcheck::kernels {

enum class LoadKind : int { Weak, Volatile, RelaxedGpu, AcquireGpu, NonCoherent };
enum class ScopeKind : int { Cta, Gpu, Sys };

// Where each of a launch's parallel instances lives. Threads and memory are placed by co-prime
// permutations that change every launch (and, for partners, every round), so an instance's two agents
// and its memory word are never simply "neighbours".
struct Placement {
  std::uint32_t memory_stride = 1;   // co-prime with the instance count
  std::uint32_t memory_offset = 0;
  std::uint32_t lane_stride = 1;     // odd: co-prime with the power-of-two block size
  std::uint64_t seed = 0;            // varies partner CTAs per round
};

// Optional stress: every testing thread touches scratch lines before each round.
struct Stress {
  std::uint32_t* scratch = nullptr;  // nullptr disables stress
  std::uint32_t scratch_words = 0;
  std::uint32_t accesses = 0;        // per thread per round
};

struct LaunchShape {
  int blocks = 0;
  int threads = 0;
  std::uint32_t instances() const { return static_cast<std::uint32_t>(blocks) * static_cast<std::uint32_t>(threads); }
};

// r0 = ld [read]; st [write] = v; (fence.proxy.alias); r1 = ld [read]  -- each thread, `rounds` times.
struct SameThreadArgs {
  std::uint32_t* write_view = nullptr;  // view A, instance words start here
  std::uint32_t* read_view = nullptr;   // view B (or A itself), same words
  LoadKind load = LoadKind::Weak;
  bool proxy_fence = false;
  std::uint32_t rounds = 1;
  std::uint32_t value_base = 0;         // round r writes value_base + r + 1
  Placement placement;
  Stress stress;
  unsigned long long* histogram = nullptr;  // kMaxBins counters, accumulated
  std::uint32_t* sink = nullptr;            // keeps otherwise-unused loads alive
};
LaunchShape same_thread_shape(const SameThreadArgs& args, int threads_per_block);
void launch_same_thread(const SameThreadArgs& args, LaunchShape shape, cudaStream_t stream);

// Writer: st data[A] = v; (fence); st.release.scope flag[A] = v.
// Reader (a thread of another CTA): spin ld.acquire.scope flag[flag_view] >= v; (fence); ld data[data_view].
struct MessagePassingArgs {
  std::uint32_t* data_write = nullptr;  // view A
  std::uint32_t* flag_write = nullptr;  // view A
  std::uint32_t* data_read = nullptr;   // the data axis' view
  std::uint32_t* flag_read = nullptr;   // the flag axis' view
  bool writer_fence = false;
  bool reader_fence = false;
  ScopeKind scope = ScopeKind::Gpu;
  std::uint32_t rounds = 1;
  std::uint32_t value_base = 0;
  std::uint64_t spin_timeout_ns = 20'000'000;
  Placement placement;
  Stress stress;
  unsigned long long* histogram = nullptr;
};
LaunchShape message_passing_shape(const MessagePassingArgs& args, int threads_per_block);
void launch_message_passing(const MessagePassingArgs& args, LaunchShape shape, cudaStream_t stream);

// Loads the operation-level kernels now. With lazy module loading (the CUDA 12+ default) a kernel's
// first launch loads its module, and that load can wait for kernels already running: a writer or
// signal kernel launched beside a spinning resident grid would then stall until the grid's bound.
void preload_operation_kernels();

// Operation-level kernels (kernel_pair, resident).
void launch_fill(std::uint32_t* words, std::uint64_t count, std::uint32_t value, cudaStream_t stream);
// Reads every word once (through the view under test), so caches hold the old value.
void launch_prime(const std::uint32_t* words, std::uint64_t count, std::uint32_t* sink, cudaStream_t stream);
// Counts new / old / other over `count` words.
void launch_count(const std::uint32_t* words, std::uint64_t count, LoadKind load, std::uint32_t new_value,
                  std::uint32_t old_value, unsigned long long* histogram, cudaStream_t stream);

// A grid that stays resident: it primes its words through `view`, reports itself ready, waits for the
// flag (bounded), then counts what it reads.
struct ResidentArgs {
  const std::uint32_t* view = nullptr;
  std::uint64_t count = 0;
  LoadKind load = LoadKind::Weak;
  std::uint32_t new_value = 0;
  std::uint32_t old_value = 0;
  volatile std::uint32_t* ready = nullptr;  // host-mapped: each block adds one once primed
  std::uint32_t* flag = nullptr;            // host-mapped: non-zero once the writer completed
  std::uint64_t spin_timeout_ns = 2'000'000'000;
  unsigned long long* histogram = nullptr;
  std::uint32_t* sink = nullptr;
};
int resident_blocks();
void launch_resident_reader(const ResidentArgs& args, int blocks, cudaStream_t stream);
// st.release.sys [flag] = 1 from the GPU.
void launch_signal(std::uint32_t* flag, cudaStream_t stream);

}  // namespace vmmcheck::kernels
