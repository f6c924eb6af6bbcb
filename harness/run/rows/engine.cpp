#include "run/rows/engine.hpp"
#include "run/rows/launch_split.hpp"

#include "toolchain/audit.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "codegen/kernel_abi.h"
#include "codegen/test_facts.hpp"
#include "common/error.hpp"
#include "kernels/final_values.hpp"
#include "litmus/rows.hpp"
#include "model/select.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/in_kernel.hpp"
#include "run/kit/surface_layout.hpp"
#include "run/kit/texture.hpp"
#include "run/kit/mutants.hpp"
#include "run/rows/generator_mutants.hpp"
#include "run/rows/outcome_table.hpp"
#include "vmm/memory_kind.hpp"
#include "vmm/surface_alias.hpp"

namespace vmmcheck::run {
namespace {

using patterns::litmus::Litmus;

// Instances outside the outcome table whose words the tally keeps for the host, per launch; beyond
// that the host reads the launch's words itself (exact either way).
constexpr std::uint32_t kAsideCapacity = 1u << 16;
constexpr std::size_t kRowMemoryBytes = std::size_t{64} << 20;  // set aside when the engine starts

// Each address that is not a synonym gets its own mapping of the one allocation; a synonym uses its
// target's. (index into the AliasSet's views, or -1 for .shared)
// The rows' alias set (RowEngine::memory): kMostPlain views mapped at the start of their ranges, then as
// many mapped one granularity into theirs (Address::offset_view).
constexpr int kMostPlain = VMMCHECK_LITMUS_MAX_ADDRESSES;

// Each address's view of the rows' alias set: a global address of its own takes the next plain view, or
// the next offset one; a synonym (.texref, .surfref) its target's; -1 for .shared.
std::vector<int> view_of_address(const Litmus& t) {
  std::vector<int> out(t.addresses.size(), -1);
  int plain = 0, offset = 0;
  for (std::size_t a = 0; a < t.addresses.size(); ++a)
    if (t.addresses[a].same_as < 0 && !t.addresses[a].shared)
      out[a] = t.addresses[a].offset_view ? kMostPlain + offset++ : plain++;
  for (std::size_t a = 0; a < t.addresses.size(); ++a)
    if (t.addresses[a].same_as >= 0) out[a] = out[static_cast<std::size_t>(t.addresses[a].same_as)];
  return out;
}

}  // namespace

struct RowEngine::Loaded {
  cudaLibrary_t library = nullptr;
  cudaKernel_t function = nullptr;
  ~Loaded() {
    if (library) cudaLibraryUnload(library);
  }
};

// A location a .surfref aliases: a surface's own allocation, mapped linearly, and where each texel lies
// in it (measured: run/kit/surface_layout.hpp). An imported array first; a mapped one where the driver
// refuses that.
struct RowEngine::Surface {
  std::unique_ptr<vmm::SurfaceAlias> alias;
  std::unique_ptr<SurfaceLayout> layout;

  Surface(int device, cudaStream_t stream) {
    try {
      alias = std::make_unique<vmm::SurfaceAlias>(patterns::SurfaceBacking::Import, device, reinterpret_cast<CUstream>(stream));
    } catch (const NotSupportedError&) {
      alias = std::make_unique<vmm::SurfaceAlias>(patterns::SurfaceBacking::ArrayMap, device, reinterpret_cast<CUstream>(stream));
    }
    layout = std::make_unique<SurfaceLayout>(*alias, stream);
  }
};

namespace {

int arch_of(int device) {
  int major = 0, minor = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major * 10 + minor;
}

}  // namespace

RowEngine::RowEngine(GpuSession& session) : s_(session), arch_(arch_of(session.device())), compiler_(arch_) {
  CUDA_CHECK(cudaSetDevice(s_.device()));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, s_.device()));
  bins_ = DeviceBuffer<unsigned long long>(VMMCHECK_OUTCOME_MAX_BINS + 1);
  CUDA_CHECK(cudaMemset(bins_.get(), 0, bins_.bytes()));
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    aside_[slot] = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(kAsideCapacity) * VMMCHECK_OUTCOME_MAX_REGISTERS);
    tallied_[slot] = Event::create(false);
  }
  aside_count_ = DeviceBuffer<std::uint32_t>(kSlots);
  CUDA_CHECK(cudaMemset(aside_count_.get(), 0, aside_count_.bytes()));
  aside_seen_ = MappedHostBuffer<std::uint32_t>(kSlots);
  grid_counter_ = DeviceBuffer<std::uint32_t>(1);
  // The rows' words are set aside now, before a run's cases allocate and free memory of their own: made
  // after alias.mp's cases instead, the same rows' controls showed their forbidden outcome far less often
  // on the H200 (105 of 133 assert rows discriminating, not 120; one thread's volatile alias reads, none in
  // 10.8M instead of 38k: docs/litmus.md, "Running a row"). 64 MiB holds every row at the default budget.
  memory(patterns::Memory::Device, kRowMemoryBytes);
}

RowEngine::~RowEngine() = default;

std::string RowEngine::why_not_here(const Litmus& test) const {
  if (std::string why = codegen::why_not_generated(test); !why.empty()) return why;
  if (test.memory == patterns::Memory::Device) return "";
  for (const patterns::litmus::Address& a : test.addresses)
    if (a.declared == patterns::litmus::Proxy::Surface)
      return "a test over a surface's memory takes no .memory: the surface's is its CUDA array's own";
  const bool global = std::any_of(test.addresses.begin(), test.addresses.end(),
                                  [](const patterns::litmus::Address& a) { return !a.shared; });
  return global ? memory_why_not(test.memory) : "";  // .shared locations alone: no allocation of the kind
}

// Whether this device offers memory of `kind` behind VMM mappings (the attributes vmm::memory_kind reads;
// a compression request it then does not grant makes the row NotSupported when it runs).
std::string RowEngine::memory_why_not(patterns::Memory kind) const {
  auto it = memory_why_not_.find(kind);
  if (it == memory_why_not_.end()) {
    std::string why;
    try {
      (void)vmm::memory_kind(kind, s_.device());
    } catch (const NotSupportedError& e) {
      why = e.what();
    }
    it = memory_why_not_.emplace(kind, why).first;
  }
  return it->second;
}

codegen::Build build_of(const StressParams& s) {
  codegen::Build b;
  b.all_roles = s.all_roles;
  b.warm = s.warm_loads;
  b.reuse_words = s.reuse_words;
  b.loads_before_stores = s.loads_before_stores;
  b.distinct_addresses = s.distinct_addresses;
  return b;
}

const StressParams& stress_for_row(const Budget& b, const litmus::Row& row) {
  // By either of its names: a row that stands for a case (`case NAME`) keeps its file's, which
  // `tune --each` writes its globs in (litmus.<stem>.*).
  const std::string name = litmus::case_name_of(row), own = litmus::row_name_of(row);
  for (const RowStress& r : b.row_stress)
    if (model::filter_selects(r.rows, name) || model::filter_selects(r.rows, own)) return r.params;
  return b.stress;
}

const StressParams& RowEngine::stress_of(const litmus::Row& row) const { return stress_for_row(s_.budget(), row); }

const codegen::Kernel& RowEngine::kernel_of(const litmus::Row& row) {
  // Under a generator mutant (selftest), the kernel of the test with its mechanism taken out; built as the
  // row's stress knobs say.
  const std::optional<patterns::Mutant> mutant = active_mutant();
  const codegen::Build build = build_of(stress_of(row));
  const std::string key = row.source + (mutant ? "\n// mutant " + std::string(patterns::name_of(*mutant)) : std::string()) +
                          "\n// build " + codegen::key_of(build);
  auto it = kernels_.find(key);
  if (it == kernels_.end()) it = kernels_.emplace(key, codegen::generate(as_generated(row.test, mutant), build)).first;
  return it->second;
}

void RowEngine::compile_ahead(const std::vector<litmus::Row>& rows, int ptxas_level, bool next) {
  // Each one put first: the last first, so that the first ends at the front.
  const auto ask = [&](const litmus::Row& row) {
    if (why_not_here(row.test).empty()) compiler_.start(kernel_of(row), ptxas_level, next);
  };
  if (next) std::for_each(rows.rbegin(), rows.rend(), ask);
  else std::for_each(rows.begin(), rows.end(), ask);
}

const RowEngine::Loaded& RowEngine::loaded(const codegen::Kernel& k, int ptxas_level, RowOutcomes& out) {
  auto& slot = loaded_[{k.name, ptxas_level}];
  if (!slot) {
    const auto asked = std::chrono::steady_clock::now();
    const codegen::Compiled& compiled = compiler_.get(k, ptxas_level);
    out.compile_wait_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
    out.compile_seconds = compiled.seconds;
    out.compiled_from_cache = compiled.from_cache;
    auto l = std::make_unique<Loaded>();
    CUDA_CHECK(cudaLibraryLoadData(&l->library, compiled.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    CUDA_CHECK(cudaLibraryGetKernel(&l->function, l->library, k.name.c_str()));
    slot = std::move(l);
  }
  return *slot;
}

vmm::AliasSet& RowEngine::memory(patterns::Memory kind, std::size_t bytes) {
  std::unique_ptr<vmm::AliasSet>& set = memory_[kind];
  if (!set || set->size() < bytes) {
    const std::size_t size = std::max(bytes, set ? set->size() : std::size_t{0});
    set.reset();  // the old mappings go before the new ones are made
    // As many views as a test has addresses, at the start of their ranges, then as many one granularity in.
    std::vector<vmm::ViewSpec> views(2 * kMostPlain);
    const auto offset_views = [&](std::size_t granularity) {
      for (int v = kMostPlain; v < 2 * kMostPlain; ++v) views[static_cast<std::size_t>(v)].range_offset = granularity;
    };
    if (kind == patterns::Memory::Device) {
      offset_views(vmm::allocation_granularity(s_.device(), /*recommended=*/false));
      set = std::make_unique<vmm::AliasSet>(s_.device(), size, views);
    } else {  // made as the alias.memory families' are
      const vmm::MemoryKind k = vmm::memory_kind(kind, s_.device());
      offset_views(k.granularity);
      set = std::make_unique<vmm::AliasSet>(vmm::alias_set_of(kind, k, s_.device(), size, views));
    }
  }
  return *set;
}

RowEngine::Surface& RowEngine::surface(std::size_t rank) {
  if (surfaces_.size() <= rank) surfaces_.resize(rank + 1);
  if (!surfaces_[rank]) {
    surfaces_[rank] = std::make_unique<Surface>(s_.device(), s_.work());
    CUDA_CHECK(cudaStreamSynchronize(s_.work()));
  }
  return *surfaces_[rank];
}

// Counts on the host what the GPU did not: every instance of `words`, or (only_outside) those whose bin
// is outside `table`.
void RowEngine::count(const std::uint32_t* words, std::uint64_t instances, const std::optional<VmmcheckOutcomeTable>& table,
                      RowOutcomes& out, bool only_outside) const {
  const std::size_t n = out.registers.size();
  std::vector<std::uint32_t> key(n);
  for (std::uint64_t i = 0; i < instances; ++i) {
    std::copy(words + i * n, words + (i + 1) * n, key.begin());
    if (only_outside && table && bin_of(*table, key) != table->bins) continue;
    ++out.counts[key];
  }
}

MachineCodeVerdict RowEngine::machine_code(const litmus::Row& row, int ptxas_level) {
  const codegen::Kernel& k = kernel_of(row);
  MachineCodeVerdict v;
  v.compiler = "ptxas of NVRTC " + codegen::nvrtc_version() + (ptxas_level < 0 ? "" : " -O" + std::to_string(ptxas_level));
  v.check = toolchain::check_compiled(k, compiler_.get(k, ptxas_level), v.why_unchecked);
  return v;
}

// One row's launches (harness/codegen/kernel_abi.h): the kernel's parameters but for the placement,
// which each launch draws afresh, and how many launches.
struct RowEngine::Launches {
  VmmcheckLitmusLaunch p{};
  std::uint64_t launches = 1;
};

// A row's memory: its views' alias set (shared with rows of as many views), its textures, its surfaces.
struct RowEngine::Memory {
  void* base = nullptr;  // view 0 of the alias set: what each launch zeroes
  std::size_t bytes = 0;
  std::vector<TextureObject> textures;
  std::vector<Surface*> surfaces;
};

RowEngine::Launches RowEngine::plan(const codegen::Kernel& k, const Loaded& kernel, const litmus::Row& row) const {
  const Budget& budget = s_.budget();
  const std::string& row_name = row.name;
  Launches l;
  VmmcheckLitmusLaunch& p = l.p;
  p.file_ctas = std::max(1u, k.file_ctas);
  // The block: --stress-params' row_threads_per_block (any count), else its threads per block; at least
  // the largest file CTA (the generator refuses a CTA of more than 1024 threads).
  const StressParams& knobs = stress_of(row);
  p.block_threads = knobs.row_threads_per_block ? std::max(knobs.row_threads_per_block, k.threads_per_file_cta)
                                                : std::max(knobs.threads_per_block, (k.threads_per_file_cta + 31u) / 32u * 32u);
  if (p.block_threads > 1024u) throw std::logic_error(row_name + ": a CTA of more than 1024 threads");
  // row_ctas_per_sm CTAs per SM where they fit (a spin waits for a partner in another CTA: every CTA must
  // be resident).
  int fit = static_cast<int>(knobs.row_ctas_per_sm);
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, reinterpret_cast<const void*>(kernel.function),
                                                    static_cast<int>(p.block_threads), 0) != cudaSuccess) {
    (void)cudaGetLastError();
    fit = 2;
  }
  const int per_sm = std::max(1, std::min(static_cast<int>(knobs.row_ctas_per_sm), fit));
  const unsigned grid = static_cast<unsigned>(per_sm * sms_);
  const kernels::Stress stress =
      s_.stress_for(kernels::LaunchShape{static_cast<int>(grid), static_cast<int>(p.block_threads)}, knobs);
  if (k.all_roles) {
    // Every role in every thread: every testing CTA holds block_threads instances' roles of each kind.
    p.ctas = std::max(grid - stress.stress_blocks, p.file_ctas);
    p.slots = 0;
    p.instances = p.ctas * p.block_threads;
  } else {
    // One role a thread: `slots` instances' worth of each file CTA in each testing CTA.
    p.slots = p.block_threads / std::max(1u, k.threads_per_file_cta);
    const unsigned groups = std::max(1u, (grid - stress.stress_blocks) / p.file_ctas);
    p.ctas = groups * p.file_ctas;
    p.instances = groups * p.slots;
  }
  p.stress = kernels::abi_of(stress);
  p.stress.stress_blocks = stress.scratch && stress.stress_blocks ? std::max(grid, p.ctas) - p.ctas : 0;
  p.spin_timeout_ns = static_cast<unsigned long long>(knobs.row_spin_timeout_us) * 1000ull;
  p.grid_barrier = knobs.grid_barrier ? 1u : 0u;
  p.grid_counter = grid_counter_.get();
  l.launches = std::max<std::uint32_t>(1, knobs.row_launches ? knobs.row_launches : budget.row_launches);
  RoundsAndLaunches split{rounds_for(budget, p.instances, l.launches), l.launches};
  // A budget beyond the default's is more launches of the default's rounds, not longer launches: threads
  // with no barrier between rounds drift apart over many rounds, and a row's weak outcomes go with them
  // (on the H200, cuda-litmus's isa2 under its tuned knobs: 0.555% of 10.8M instances, 0.0094% of 1G run
  // as launches a hundred times as long). So a long run keeps the shape its knobs were measured with.
  Budget usual = budget;
  usual.instances = Budget{}.instances;
  if (!knobs.row_rounds_per_launch) split = at_most(split, rounds_for(usual, p.instances, l.launches));
  split = at_most(split, knobs.row_rounds_per_launch);  // more launches of fewer rounds
  // Values by round: a round's tag must fit beside the value (kernel_abi.h); more launches instead.
  constexpr std::uint32_t kMostTaggedRounds = (1u << (32 - VMMCHECK_LITMUS_VALUE_BITS)) - 2u;
  if (std::find(k.reused_locations.begin(), k.reused_locations.end(), true) != k.reused_locations.end())
    split = at_most(split, kMostTaggedRounds);
  p.rounds = split.rounds;
  l.launches = split.launches;
  const bool surfaces = std::find(k.surface_locations.begin(), k.surface_locations.end(), true) != k.surface_locations.end();
  if (surfaces) {  // a surface's texels are the words of its location: as many instance-rounds as texels per launch
    const unsigned texels = vmm::SurfaceAlias::kSide * vmm::SurfaceAlias::kSide;
    p.rounds = std::max(1u, std::min(p.rounds, texels / p.instances));
    const std::uint64_t per = static_cast<std::uint64_t>(p.rounds) * p.instances;
    l.launches = std::max<std::uint64_t>(l.launches, (budget.instances + per - 1) / per);
    p.surface_width = vmm::SurfaceAlias::kSide;
  }
  p.region_words = p.rounds * p.instances;
  p.register_count = static_cast<unsigned>(k.registers.size());
  return l;
}

RowEngine::Memory RowEngine::bind(const Litmus& test, const codegen::Kernel& k, Launches& l) {
  VmmcheckLitmusLaunch& p = l.p;
  Memory m;
  const std::vector<int> view_index = view_of_address(test);
  m.bytes = std::max<std::size_t>(1, k.locations) * p.region_words * sizeof(std::uint32_t);
  vmm::AliasSet& set = memory(test.memory, m.bytes);
  m.base = reinterpret_cast<void*>(set.view(0).address);
  const auto on_surface = [&](std::size_t a) {
    const int L = k.location_of_address[a];
    return L >= 0 && k.surface_locations[static_cast<std::size_t>(L)];
  };
  for (std::size_t a = 0; a < test.addresses.size(); ++a) {
    if (view_index[a] < 0) continue;
    p.view[a] = reinterpret_cast<unsigned*>(set.view(static_cast<std::size_t>(view_index[a])).address);
    if (test.addresses[a].declared != patterns::litmus::Proxy::Texture || on_surface(a)) continue;
    m.textures.push_back(texture_over(p.view[a], patterns::TexResource::Linear, m.bytes / sizeof(std::uint32_t)));
    p.texture[a] = m.textures.back();
  }
  // Surface locations: every address of one reaches it through a linear mapping of the surface's
  // allocation, at the word of each instance's texel -- its first root address through the surface's own,
  // each physical alias through one more (vmm::SurfaceAlias::view) -- a .surfref through the surface
  // object and a .texref through the texture object over the surface's array.
  std::map<int, std::vector<int>> roots_of;  // L -> its root addresses, in declaration order
  for (std::size_t a = 0; a < test.addresses.size(); ++a) {
    if (!on_surface(a)) continue;
    const int L = k.location_of_address[a];
    const std::size_t rank = static_cast<std::size_t>(std::count(k.surface_locations.begin(), k.surface_locations.begin() + L, true));
    Surface& sm = surface(rank);
    if (std::find(m.surfaces.begin(), m.surfaces.end(), &sm) == m.surfaces.end()) m.surfaces.push_back(&sm);
    std::vector<int>& roots = roots_of[L];
    const int root = codegen::root_of(test, static_cast<int>(a));
    const std::size_t view = static_cast<std::size_t>(std::find(roots.begin(), roots.end(), root) - roots.begin());
    if (view == roots.size()) roots.push_back(root);
    p.view[a] = reinterpret_cast<unsigned*>(sm.alias->view(view));
    p.texel_word[L] = sm.layout->texels().word_of;
    if (test.addresses[a].declared == patterns::litmus::Proxy::Surface) p.surface[a] = sm.alias->surface();
    if (test.addresses[a].declared == patterns::litmus::Proxy::Texture) p.texture[a] = sm.alias->texture();
  }
  return m;
}

namespace {

// The final values of a launch (codegen::Kernel::finals), as kernels/final_values.hpp copies them.
kernels::FinalValues finals_of(const codegen::Kernel& k, const VmmcheckLitmusLaunch& p) {
  kernels::FinalValues f;
  if (k.finals.size() > kernels::FinalValues::kMost) throw std::logic_error("more final values than a launch copies");
  for (const codegen::Kernel::Final& v : k.finals) {
    f.region[f.count] = p.view[v.view] + static_cast<std::uint64_t>(v.location) * p.region_words;
    f.reg[f.count++] = v.reg;
  }
  f.registers = p.registers;
  f.register_count = p.register_count;
  f.instances = p.instances;
  f.rounds = p.rounds;
  f.memory_stride = p.memory_stride;
  f.memory_offset = p.memory_offset;
  return f;
}

}  // namespace

void RowEngine::launch_and_count(const litmus::Row& row, const codegen::Kernel& k, const Loaded& kernel, Launches& l, const Memory& m,
                                 const std::optional<VmmcheckOutcomeTable>& table, RowOutcomes& out) {
  VmmcheckLitmusLaunch& p = l.p;
  cudaStream_t work = s_.work();
  // Results: the kernel's words per instance stay on the GPU; the tally counts them after each launch.
  const std::uint64_t result_words = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(p.region_words) * p.register_count);
  for (DeviceBuffer<std::uint32_t>& words : registers_)
    if (words.count() < result_words) words = DeviceBuffer<std::uint32_t>(result_words);
  // A row that threw half-way (a CUDA error, a tally that did not add up) left its counts behind.
  CUDA_CHECK(cudaMemsetAsync(bins_.get(), 0, bins_.bytes(), work));
  CUDA_CHECK(cudaMemsetAsync(aside_count_.get(), 0, aside_count_.bytes(), work));
  std::vector<std::uint32_t> host_words;  // a launch's words, where the host must count them
  std::uint64_t counted_outside = 0;      // instances outside the table, counted on the host
  const auto read_words = [&](const std::uint32_t* words, std::uint64_t count) {
    host_words.resize(count);
    CUDA_CHECK(cudaMemcpyAsync(host_words.data(), words, count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, work));
    CUDA_CHECK(cudaStreamSynchronize(work));
  };
  // Launch i's outside instances, once its tally has run (the host waits for it while launch i + 1 runs:
  // the slots keep the two launches' words apart). A launch whose outside instances overflow the words set
  // aside is read whole: its slot is written again only by launch i + 2, queued after this returns.
  const auto count_outside = [&](std::uint64_t launch) {
    const std::size_t slot = launch % kSlots;
    CUDA_CHECK(cudaEventSynchronize(tallied_[slot]));
    const std::uint32_t outside = aside_seen_.get()[slot];
    if (outside == 0) return;
    if (outside <= kAsideCapacity) {
      read_words(aside_[slot].get(), static_cast<std::uint64_t>(outside) * p.register_count);
      count(host_words.data(), outside, table, out, false);
    } else {
      read_words(registers_[slot].get(), static_cast<std::uint64_t>(p.region_words) * p.register_count);
      count(host_words.data(), p.region_words, table, out, true);
    }
    counted_outside += outside;
    CUDA_CHECK(cudaMemsetAsync(aside_count_.get() + slot, 0, sizeof(std::uint32_t), work));
  };
  // After each launch: the tally bins what the table holds and sets the rest aside; the host counts
  // those of the launch before.
  const auto count_launch = [&](std::uint64_t launch) {
    const std::size_t slot = launch % kSlots;
    if (!table) {  // no table fits this row's outcomes: every instance on the host
      read_words(registers_[slot].get(), static_cast<std::uint64_t>(p.region_words) * p.register_count);
      count(host_words.data(), p.region_words, table, out, false);
      return;
    }
    const kernels::TallyOutput tally{bins_.get(), aside_[slot].get(), aside_count_.get() + slot, kAsideCapacity};
    kernels::launch_tally(registers_[slot].get(), p.region_words, *table, tally, work);
    CUDA_CHECK(cudaMemcpyAsync(aside_seen_.get() + slot, aside_count_.get() + slot, sizeof(std::uint32_t),
                               cudaMemcpyDeviceToHost, work));
    CUDA_CHECK(cudaEventRecord(tallied_[slot], work));
    if (launch > 0) count_outside(launch - 1);
  };

  const LoopPlan loop{p.instances, l.launches, p.region_words, p.ctas, p.block_threads};
  out.gpu_seconds = launch_loop(
      s_, case_name_of(row), loop,
      [&](std::uint64_t launch, const kernels::Placement& placement) {
        p.cta_stride = placement.cta_stride;
        p.cta_offset = placement.cta_offset;
        p.memory_stride = placement.memory_stride;
        p.memory_offset = placement.memory_offset;
        p.lane_stride = placement.lane_stride;
        p.registers = registers_[launch % kSlots].get();
        if (stress_of(row).contiguous_launch(launch)) {  // a warp's instances in one line (StressParams)
          p.memory_stride = 1;
          p.memory_offset = 0;
          p.lane_stride = 1;
        }
        CUDA_CHECK(cudaMemsetAsync(m.base, 0, m.bytes, work));
        for (std::size_t L = 0; L < k.initial_values.size(); ++L)  // a location's value before the test
          if (k.initial_values[L] != 0)
            fill(reinterpret_cast<CUdeviceptr>(m.base) + L * p.region_words * sizeof(std::uint32_t), p.region_words,
                 k.initial_values[L], work);
        // Every register word marked unwritten (kUnwritten's byte): one the kernel does not write is an Error.
        CUDA_CHECK(cudaMemsetAsync(p.registers, kUnwritten & 0xFFu, result_words * sizeof(std::uint32_t), work));
        for (Surface* sm : m.surfaces)
          CUDA_CHECK(cudaMemsetAsync(reinterpret_cast<void*>(sm->alias->linear()), 0, sm->alias->bytes(), work));
        // The memory-stress CTAs run until the testing CTAs have counted themselves done.
        if (p.stress.done) CUDA_CHECK(cudaMemsetAsync(p.stress.done, 0, sizeof(std::uint32_t), work));
        if (p.grid_barrier) CUDA_CHECK(cudaMemsetAsync(p.grid_counter, 0, sizeof(std::uint32_t), work));
      },
      [&] {
        void* args[] = {&p};
        CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel.function), dim3(p.ctas + p.stress.stress_blocks),
                                    dim3(p.block_threads), args, 0, work));
        if (!k.finals.empty()) kernels::launch_final_values(finals_of(k, p), work);
      },
      count_launch);
  if (table && loop.launches > 0) count_outside(loop.launches - 1);
  out.instances = loop.instances_per_launch * loop.launches;
  if (table) read_histogram(row, *table, counted_outside, out);
  out.counted_on_gpu = table.has_value();
}

// The histogram, decoded by the table it was counted by; every instance must be in it exactly once.
void RowEngine::read_histogram(const litmus::Row& row, const VmmcheckOutcomeTable& table, std::uint64_t counted_outside,
                               RowOutcomes& out) const {
  cudaStream_t work = s_.work();
  std::vector<unsigned long long> bins(table.bins + 1);
  CUDA_CHECK(cudaMemcpyAsync(bins.data(), bins_.get(), bins.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost, work));
  CUDA_CHECK(cudaStreamSynchronize(work));
  std::uint64_t total = 0;
  for (unsigned b = 0; b < table.bins; ++b) {
    total += bins[b];
    if (bins[b]) out.counts[values_of(table, b)] += bins[b];
  }
  if (bins[table.bins] != counted_outside || total + counted_outside != out.instances)
    throw std::logic_error("the outcome tally of " + row.name + " counted " + std::to_string(total + bins[table.bins]) +
                           " instances (" + std::to_string(bins[table.bins]) + " outside its table, " +
                           std::to_string(counted_outside) + " of them read) of " + std::to_string(out.instances));
}

const RowOutcomes& RowEngine::run(const litmus::Row& row, int ptxas_level) {
  if (auto it = done_.find({row.source, ptxas_level}); it != done_.end()) return it->second;
  const Litmus& test = row.test;
  if (const std::string why = why_not_here(test); !why.empty()) throw NotSupportedError(why);
  CUDA_CHECK(cudaSetDevice(s_.device()));
  const codegen::Kernel& k = kernel_of(row);
  RowOutcomes out;
  out.registers = k.registers;
  const Loaded& kernel = loaded(k, ptxas_level, out);
  const std::optional<VmmcheckOutcomeTable> table =
      outcome_table(model::ptx::outcome_space(test), k.registers, spinning_registers(test));
  Launches l = plan(k, kernel, row);
  const Memory m = bind(test, k, l);
  launch_and_count(row, k, kernel, l, m, table, out);
  return done_[{row.source, ptxas_level}] = std::move(out);
}

}  // namespace vmmcheck::run
