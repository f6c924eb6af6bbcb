#pragma once
// The stress knobs of in-kernel litmus launches, in the manner of the GPU litmus tools (GPUHarbor,
// cuda-litmus): what a user sets (--stress, --stress-params FILE) and `vmmcheck tune` searches over.
// docs/design.md, "Stress", says why each knob can bring out weak behaviour.
#include <cstdint>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "codegen/generator.hpp"
#include "kernels/in_kernel.hpp"

namespace vmmcheck::run {

struct StressParams {
  // Scratch accesses each testing thread makes before each round (pre-stress).
  std::uint32_t pre_accesses = 0;
  // Percent of the resident CTAs that run no instances but hammer the scratch lines while the
  // testing CTAs run (memory stress). 0 to 75.
  std::uint32_t stress_blocks_percent = 0;
  // Scratch accesses per loop of a memory-stress thread.
  std::uint32_t stress_accesses = 8;
  // The 128-byte scratch lines all stress lands on: fewer lines, more contention. 1 to 8192.
  std::uint32_t lines = 1024;
  kernels::StressPattern pattern = kernels::StressPattern::StoreStore;
  // A CTA barrier before each round, so the writers and readers of a round start together.
  bool barrier = false;
  // Threads per block of the in-kernel launches.
  std::uint32_t threads_per_block = 256;
  // How long peer.mp's reader (the hand-written message passing across two GPUs) spins for its flag
  // before the instance counts as a timeout (which a required case's verdict does not allow). A shorter spin wastes less GPU time on a
  // flag stuck in a stale line, but may turn a slow flag into a timeout -- host NUMA memory's flags need
  // more than 1 ms now and then on the H200: a run with less than the default is not certifying.
  std::uint32_t spin_timeout_us = 20'000;
  // The same for a generated litmus row's spins (`ld ... until v`) and its grid barrier. A row's timeout is
  // never a verdict, only an instance not judged; every CTA is resident and a spin's writers run first, so
  // a flag that comes at all comes within microseconds. Measured on the H200 (docs/litmus.md, "How a
  // generated kernel is built"): at 1 ms the spinning rows show the same timeouts and weak outcomes as at
  // 20 ms, in a seventeenth of the GPU time.
  std::uint32_t row_spin_timeout_us = 1'000;
  // Generated litmus kernels (harness/codegen/generator.hpp, Build), each measured on the H200
  // (docs/litmus.md, "How a generated kernel is built"):
  // every GPU thread runs every litmus thread's program, each for an instance of its own, as cuda-litmus
  // and the hand-written kernels do; off: one litmus thread a GPU thread.
  bool all_roles = true;
  // Warming reads before each round, so that a load that can read a stale value has a stale copy to hit
  // (as the hand-written message-passing readers warm their data line): none, the words the weak loads
  // read, or those every load but a spin's reads. A read added to a thread only removes executions, so
  // an outcome the row's shape forbids stays forbidden (docs/litmus.md, "Power").
  using Warm = codegen::Build::Warm;  // the generator's own choice, as the kernel is built by it
  Warm warm_loads = Warm::All;
  // A location one litmus thread writes keeps its word across rounds, values tagged by round (as the
  // hand-written kernels' values grow by round), so a reader's line still holds an earlier round's value.
  bool reuse_words = true;
  // Generated litmus kernels: each store waits for its thread's earlier loads and atomics (an address that
  // depends on them through a runtime zero), as a hand-written kernel that compares a loaded value before
  // its store does. Off by default (it takes away the overlap load buffering needs); a row's own knobs
  // turn it on (cases/litmus/stress-params.json: alias_same_thread's ld.nc rows).
  bool loads_before_stores = false;
  // Generated litmus kernels: a store after a store of the same address, and a weak load after an access
  // of it, go through an opaque offset of their own (codegen::Build::distinct_addresses), so that ptxas can
  // neither merge two loads of it, forward a store to a load, nor drop the first of two stores -- as it did
  // at -O1..-O3 in CoRR's, CoWW's and the same-thread files' rows (docs/toolchain.md). On by default: the
  // machine code then holds every generic operation of the shipped rows (vmmcheck toolchain, no GPU); what
  // it does to their weak outcomes on a GPU is not measured yet.
  bool distinct_addresses = true;
  // Generated litmus kernels: before each round every testing CTA meets the others (a bounded spin on a
  // counter), so that every instance's roles start together, as cuda-litmus's barrier does.
  bool grid_barrier = false;
  // Generated litmus kernels' launch shape (cuda-litmus's best draws run many small CTAs: 864 of 22
  // threads on the H200): CTAs per SM, testing and stress CTAs together, at most what the occupancy
  // calculator says fit at once (a spin waits for a partner in another CTA: every CTA must be resident);
  // and threads per CTA, any count (0: threads_per_block), at least the file's largest CTA.
  std::uint32_t row_ctas_per_sm = 2;
  std::uint32_t row_threads_per_block = 0;
  // At most this many rounds in one launch of a row (0: as the budget's row_launches split them); more
  // launches instead. Every launch starts its CTAs together, as cuda-litmus runs one iteration a launch.
  std::uint32_t row_rounds_per_launch = 0;
  // Launches of a row (0: the budget's --row-launches), its instances split among them as rounds. One
  // thread's reads through an alias show their stale value an order of magnitude more often in one
  // launch of many rounds at 8 CTAs per SM than in the default's launches of four (docs/litmus.md, "The
  // shipped files' own knobs"): a line the thread read in earlier rounds is what the stale read hits.
  std::uint32_t row_launches = 0;
  // Generated litmus kernels' words (kernel_abi.h, "Memory"): permuted -- a co-prime memory stride, an
  // offset and a lane stride drawn for each launch spread a warp's instances over many lines; contiguous
  // -- every launch's instances in consecutive words in lane order (strides 1, no offset), a warp's 32
  // instances of a location in one 128-byte line, as cuda-litmus lays them out with its memory stride 1
  // and no permutation; mixed -- the launches alternate, permuted first. Measured on the H200
  // (docs/litmus.md, "How a generated kernel is built"): contiguous words bring out the weak outcomes of
  // most multi-CTA shapes by orders of magnitude, permuted ones those of one thread's aliases and of
  // coherence; mixed keeps both at half the launches each.
  enum class WordOrder { Permuted, Contiguous, Mixed };
  WordOrder row_word_order = WordOrder::Mixed;
  // Whether launch `launch` of a row lays its words out contiguously.
  bool contiguous_launch(std::uint64_t launch) const {
    return row_word_order == WordOrder::Contiguous || (row_word_order == WordOrder::Mixed && launch % 2 == 1);
  }

  // Any stress at all (the default is none).
  bool any() const { return pre_accesses > 0 || stress_blocks_percent > 0 || barrier; }
};

bool operator==(const StressParams& a, const StressParams& b);
inline bool operator!=(const StressParams& a, const StressParams& b) { return !(a == b); }

// The `--stress` preset: four pre-stress accesses per round.
StressParams stress_preset();

// "off", or the knobs that differ from the defaults ("pre 4, stress CTAs 25%, ...").
std::string describe(const StressParams& p);

// The knobs as a JSON object, and back (every key optional; unknown keys and values out of range are an
// InputError naming `source` and the key).
nlohmann::ordered_json to_json(const StressParams& p);
StressParams stress_params_from_json(const nlohmann::ordered_json& j, const std::string& source);

// A params file: {"schema": "vmmcheck-stress-params/1", "params": {...}, ...}. Every key of "params" is
// optional (missing: the default); an unknown key or a value out of range is an InputError naming it.
StressParams read_stress_params(const std::string& path);

// Per-row knobs (a params file's "rows", as `tune --each` writes them): the litmus rows they are for --
// comma-separated globs over dotted row names, as --filter takes them -- and the knobs those rows run
// under instead of the file's own (every key optional: a missing one is the default). The first entry
// that matches a row is its. Tests of different shapes want different stress (docs/litmus.md, "Beside
// cuda-litmus"): one run can give each its own.
struct RowStress {
  std::string rows;
  StressParams params;
};
nlohmann::ordered_json to_json(const std::vector<RowStress>& rows);
std::vector<RowStress> row_stress_from_json(const nlohmann::ordered_json& j, const std::string& source);
// A params file's "rows" (empty: none).
std::vector<RowStress> read_row_stress(const std::string& path);

// One random draw from the ranges `vmmcheck tune` searches.
StressParams random_stress_params(std::mt19937_64& rng);
// `p` as the generated litmus rows read it (the kernels `tune` measures): spin_timeout_us, which only
// peer.mp's hand-written reader reads, and threads_per_block where row_threads_per_block sets a row's CTA
// size, at their defaults -- tune records a draw so, and a params file then carries no knob its rows never
// read (a shorter spin_timeout_us would make peer.mp under it not certifying).
StressParams as_rows_read(const StressParams& p);
// `p` with one knob, chosen at random among those a fresh draw has otherwise, as that draw has it: tune's
// refinement around its best draw so far (one knob at a time, a step of a local search). The change is
// one the rows read, and one describe() shows (not the lines of a stress that is off): a change nothing
// reads would measure the same kernels again and could win on noise alone.
StressParams refined_stress_params(const StressParams& p, std::mt19937_64& rng);

}  // namespace vmmcheck::run
