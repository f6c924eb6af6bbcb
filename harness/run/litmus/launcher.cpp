#include "run/litmus/launcher.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "common/cuda_objects.hpp"
#include "common/error.hpp"
#include "litmus/codegen.hpp"
#include "litmus/kernel_abi.h"
#include "litmus/nvrtc.hpp"
#include "run/kit/session.hpp"
#include "run/kit/surface_layout.hpp"
#include "vmm/alias_set.hpp"
#include "vmm/surface_alias.hpp"

namespace vmmcheck::run {
namespace {

using patterns::litmus::Litmus;

constexpr unsigned kBlockThreads = 256;

using Texture = Owned<cudaTextureObject_t, cudaDestroyTextureObject>;
using PinnedWords = Owned<void*, cudaFreeHost>;

unsigned coprime_below(std::mt19937_64& rng, unsigned n) {
  if (n <= 2) return 1;
  for (;;) {
    const unsigned s = 1 + static_cast<unsigned>(rng() % (n - 1));
    if (std::gcd(s, n) == 1) return s;
  }
}

// Each address that is not a synonym gets its own mapping of the one allocation; a synonym uses its
// target's. (index into the AliasSet's views, or -1 for .shared)
std::vector<int> view_of_address(const Litmus& t, int& views) {
  std::vector<int> out(t.addresses.size(), -1);
  views = 0;
  for (std::size_t a = 0; a < t.addresses.size(); ++a)
    if (t.addresses[a].same_as < 0 && !t.addresses[a].shared) out[a] = views++;
  for (std::size_t a = 0; a < t.addresses.size(); ++a)
    if (t.addresses[a].same_as >= 0) out[a] = out[static_cast<std::size_t>(t.addresses[a].same_as)];
  return out;
}

// A location a .surfref aliases: a surface's own allocation, mapped linearly, and where each texel lies
// in it (measured: run/kit/surface_layout.hpp). An imported array first; a mapped one where the driver
// refuses that.
struct SurfaceMemory {
  std::unique_ptr<vmm::SurfaceAlias> alias;
  std::unique_ptr<SurfaceLayout> layout;

  SurfaceMemory(int device, cudaStream_t stream) {
    try {
      alias = std::make_unique<vmm::SurfaceAlias>(patterns::SurfaceBacking::Import, device, reinterpret_cast<CUstream>(stream));
    } catch (const NotSupportedError&) {
      alias = std::make_unique<vmm::SurfaceAlias>(patterns::SurfaceBacking::ArrayMap, device, reinterpret_cast<CUstream>(stream));
    }
    layout = std::make_unique<SurfaceLayout>(*alias, stream);
  }
};

void count_outcomes(const std::uint32_t* words, std::uint64_t instances, unsigned registers, RowOutcomes& out) {
  std::vector<std::uint32_t> key(registers);
  for (std::uint64_t i = 0; i < instances; ++i) {
    std::copy(words + i * registers, words + (i + 1) * registers, key.begin());
    auto it = out.counts.find(key);
    if (it != out.counts.end()) ++it->second;
    else out.counts.emplace(key, 1);
  }
  out.instances += instances;
}

}  // namespace

struct LitmusLauncher::Loaded {
  litmus::Kernel kernel;
  cudaLibrary_t library = nullptr;
  cudaKernel_t function = nullptr;
  ~Loaded() {
    if (library) cudaLibraryUnload(library);
  }
};

LitmusLauncher::LitmusLauncher(int device, const Budget& budget) : device_(device), budget_(budget) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || device >= count)
    throw NotSupportedError("no CUDA device " + std::to_string(device));
  CUDA_CHECK(cudaSetDevice(device));
  int major = 0, minor = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
  arch_ = major * 10 + minor;
}

LitmusLauncher::~LitmusLauncher() = default;

std::string LitmusLauncher::why_not_here(const Litmus& test) const { return litmus::why_not_generated(test); }

const RowOutcomes& LitmusLauncher::run(const Litmus& test, const std::string& source, int ptxas_level) {
  if (auto it = done_.find({source, ptxas_level}); it != done_.end()) return it->second;
  if (const std::string why = why_not_here(test); !why.empty()) throw NotSupportedError(why);
  CUDA_CHECK(cudaSetDevice(device_));

  litmus::Kernel k = litmus::generate(test);
  auto& loaded = kernels_[{k.name, ptxas_level}];
  if (!loaded) {
    const litmus::Compiled compiled = litmus::compile(k, arch_, ptxas_level);
    loaded = std::make_unique<Loaded>();
    CUDA_CHECK(cudaLibraryLoadData(&loaded->library, compiled.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    CUDA_CHECK(cudaLibraryGetKernel(&loaded->function, loaded->library, k.name.c_str()));
    loaded->kernel = k;
  }

  // Geometry (harness/litmus/kernel_abi.h): two CTAs per SM, `slots` instances' worth of each file CTA in each.
  VmmcheckLitmusLaunch p{};
  p.file_ctas = std::max(1u, k.file_ctas);
  p.block_threads = kBlockThreads;
  while (p.block_threads < k.threads_per_file_cta) p.block_threads *= 2;
  p.slots = p.block_threads / std::max(1u, k.threads_per_file_cta);
  const unsigned groups = std::max(1u, static_cast<unsigned>(2 * sms_) / p.file_ctas);
  p.ctas = groups * p.file_ctas;
  p.instances = groups * p.slots;
  std::uint64_t launches = std::max<std::uint32_t>(1, budget_.iterations);
  const std::uint64_t per_launch = (budget_.instances + launches - 1) / launches;
  p.rounds = static_cast<unsigned>(std::max<std::uint64_t>(1, (per_launch + p.instances - 1) / p.instances));
  const bool surfaces = std::find(k.surface_locations.begin(), k.surface_locations.end(), true) != k.surface_locations.end();
  if (surfaces) {  // a surface's texels are the words of its location: as many instance-rounds as texels per launch
    const unsigned texels = vmm::SurfaceAlias::kSide * vmm::SurfaceAlias::kSide;
    p.rounds = std::max(1u, std::min(p.rounds, texels / p.instances));
    const std::uint64_t per = static_cast<std::uint64_t>(p.rounds) * p.instances;
    launches = std::max<std::uint64_t>(launches, (budget_.instances + per - 1) / per);
    p.surface_width = vmm::SurfaceAlias::kSide;
  }
  p.region_words = p.rounds * p.instances;
  p.register_count = static_cast<unsigned>(k.registers.size());
  p.line_words = 32;

  int views = 0;
  const std::vector<int> view_index = view_of_address(test, views);
  const std::size_t bytes = std::max<std::size_t>(1, k.locations) * p.region_words * sizeof(std::uint32_t);
  vmm::AliasSet memory(device_, bytes, std::vector<vmm::ViewSpec>(static_cast<std::size_t>(std::max(1, views))));
  std::vector<Texture> textures;
  for (std::size_t a = 0; a < test.addresses.size(); ++a) {
    if (view_index[a] < 0) continue;
    p.view[a] = reinterpret_cast<unsigned*>(memory.view(static_cast<std::size_t>(view_index[a])).address);
    if (test.addresses[a].declared != patterns::litmus::Proxy::Texture) continue;
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = p.view[a];
    res.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    res.res.linear.sizeInBytes = bytes;
    cudaTextureDesc td{};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
    textures.emplace_back(tex);
    p.texture[a] = tex;
  }
  // Surface locations: every address of one reaches it through the surface's linear mapping, at the
  // word of each instance's texel; the .surfref through the surface object.
  const Stream setup = Stream::create();
  std::vector<std::unique_ptr<SurfaceMemory>> surface_memory(k.surface_locations.size());
  for (std::size_t a = 0; a < test.addresses.size(); ++a) {
    const int L = k.location_of_address[a];
    if (L < 0 || !k.surface_locations[static_cast<std::size_t>(L)]) continue;
    auto& sm = surface_memory[static_cast<std::size_t>(L)];
    if (!sm) sm = std::make_unique<SurfaceMemory>(device_, setup);
    p.view[a] = reinterpret_cast<unsigned*>(sm->alias->linear());
    p.texel_word[L] = sm->layout->texels().word_of;
    if (test.addresses[a].declared == patterns::litmus::Proxy::Surface) p.surface[a] = sm->alias->surface();
  }
  CUDA_CHECK(cudaStreamSynchronize(setup));
  const std::uint64_t result_words = static_cast<std::uint64_t>(p.region_words) * p.register_count;
  DeviceBuffer<std::uint32_t> registers(std::max<std::uint64_t>(1, result_words));
  void* host = nullptr;
  CUDA_CHECK(cudaMallocHost(&host, std::max<std::uint64_t>(1, result_words) * sizeof(std::uint32_t)));
  const PinnedWords host_words(host);
  p.registers = registers.get();
  DeviceBuffer<std::uint32_t> scratch;
  if (budget_.stress.pre_accesses > 0) {
    scratch = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(budget_.stress.lines) * p.line_words);
    CUDA_CHECK(cudaMemset(scratch.get(), 0, scratch.bytes()));
    p.scratch = scratch.get();
    p.scratch_lines = budget_.stress.lines;
    p.pre_accesses = budget_.stress.pre_accesses;
  }
  p.round_barrier = budget_.stress.barrier ? 1u : 0u;

  const Stream stream = Stream::create();
  const Event start = Event::create(true), stop = Event::create(true);
  RowOutcomes& out = done_[{source, ptxas_level}];
  out = RowOutcomes{};
  out.registers = k.registers;
  std::mt19937_64 rng(case_seed(budget_, test.name, 0));
  void* base = reinterpret_cast<void*>(memory.view(0).address);
  for (std::uint64_t i = 0; i < launches; ++i) {
    p.cta_stride = coprime_below(rng, p.ctas);
    p.cta_offset = static_cast<unsigned>(rng() % p.ctas);
    p.memory_stride = coprime_below(rng, p.instances);
    p.memory_offset = static_cast<unsigned>(rng() % p.instances);
    p.lane_stride = static_cast<unsigned>(rng() % p.block_threads) | 1u;
    p.seed = static_cast<unsigned>(rng());
    CUDA_CHECK(cudaMemsetAsync(base, 0, bytes, stream));
    for (const auto& sm : surface_memory)
      if (sm) CUDA_CHECK(cudaMemsetAsync(reinterpret_cast<void*>(sm->alias->linear()), 0, sm->alias->bytes(), stream));
    void* args[] = {&p};
    CUDA_CHECK(cudaEventRecord(start, stream));
    CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(loaded->function), dim3(p.ctas), dim3(p.block_threads), args, 0,
                                stream));
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaMemcpyAsync(host, registers.get(), result_words * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    out.gpu_seconds += ms / 1000.0;
    count_outcomes(static_cast<const std::uint32_t*>(host), p.region_words, p.register_count, out);
  }
  return out;
}

}  // namespace vmmcheck::run
