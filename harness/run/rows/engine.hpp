#pragma once
// Litmus rows on the GPU (docs/litmus.md, "Running a row"): the one in-kernel engine of
// run/kit/in_kernel.hpp running a row's generated kernel. Kernels are compiled ahead, on every core
// (codegen/compile_ahead.hpp); each row's addresses are views of one alias set -- an address of its own
// is a mapping of its own, a .texref a texture object over the view it aliases -- reused by the next row
// of as many views; each launch is placed, stressed and timed by launch_loop; and the outcomes are
// counted on the GPU (kernels/outcome_tally.hpp), by the model's outcome space of the row's shape: only
// the histogram comes back. run/rows/row_result.hpp judges it.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/compile_ahead.hpp"
#include "common/cuda_objects.hpp"
#include "kernels/outcome_tally.hpp"
#include "litmus/file.hpp"
#include "run/kit/session.hpp"
#include "run/rows/row_result.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {

// The stress knobs that change a generated kernel's code (run/records/stress_params.hpp) as the generator
// takes them: a run's rows are built so, and selftest compiles their mutants so.
codegen::Build build_of(const StressParams& s);
// The knobs `row` runs under in a run of budget `b`: its Budget::row_stress entry's (by either of its
// names), or the run's.
const StressParams& stress_for_row(const Budget& b, const litmus::Row& row);

class RowEngine {
 public:
  // Runs rows on the session's device, stream, timing events and stress.
  explicit RowEngine(GpuSession& session);
  ~RowEngine();

  // Why `test` cannot run on this machine (empty: it can).
  std::string why_not_here(const patterns::litmus::Litmus& test) const;

  // Generates the kernel of every row of `rows` that can run here and starts compiling them all, on as
  // many threads as there are cores, while the caller goes on. A row not handed here compiles when run.
  // `next`: before the kernels queued earlier, in `rows`' order (rows needed now).
  void compile_ahead(const std::vector<litmus::Row>& rows, int ptxas_level = -1, bool next = false);

  // Runs `row` (why_not_here(row.test) must be empty) for at least the budget's instances, its kernel
  // compiled with ptxas at `ptxas_level` (-1: ptxas's default, -O3; codegen/nvrtc.hpp). A test already
  // run at that level (the same text under another command) is not run again. Throws CompileError
  // with NVRTC's log for a kernel that does not compile.
  const RowOutcomes& run(const litmus::Row& row, int ptxas_level = -1);

  // The machine code `row` ran at `ptxas_level` (run(row) first), checked against its kernel's memory
  // operations (toolchain/audit.hpp): intact, or what was lost, merged, weakened or reordered.
  MachineCodeVerdict machine_code(const litmus::Row& row, int ptxas_level = -1);

 private:
  struct Loaded;
  struct Surface;
  struct Launches;
  struct Memory;
  const codegen::Kernel& kernel_of(const litmus::Row& row);
  const Loaded& loaded(const codegen::Kernel& k, int ptxas_level, RowOutcomes& out);
  // The steps of run(), in order: the launches' geometry and stress, the row's memory, the launches
  // with each launch's outcomes counted, and the histogram read back.
  Launches plan(const codegen::Kernel& k, const Loaded& kernel, const litmus::Row& row) const;
  // The knobs `row` runs under: its Budget::row_stress entry's, or the run's.
  const StressParams& stress_of(const litmus::Row& row) const;
  Memory bind(const patterns::litmus::Litmus& test, const codegen::Kernel& k, Launches& l);
  void launch_and_count(const litmus::Row& row, const codegen::Kernel& k, const Loaded& kernel, Launches& l, const Memory& m,
                        const std::optional<VmmcheckOutcomeTable>& table, RowOutcomes& out);
  void read_histogram(const litmus::Row& row, const VmmcheckOutcomeTable& table, std::uint64_t counted_outside,
                      RowOutcomes& out) const;
  vmm::AliasSet& memory(patterns::Memory kind, std::size_t bytes);
  std::string memory_why_not(patterns::Memory kind) const;
  Surface& surface(std::size_t rank);
  void count(const std::uint32_t* words, std::uint64_t instances, const std::optional<VmmcheckOutcomeTable>& table,
             RowOutcomes& out, bool only_outside) const;

  GpuSession& s_;
  int arch_ = 0;
  int sms_ = 0;
  codegen::CompileAhead compiler_;
  std::map<std::string, codegen::Kernel> kernels_;                       // by test source, mutant and build
  std::map<std::pair<std::string, int>, std::unique_ptr<Loaded>> loaded_;  // by kernel name and ptxas level
  std::map<std::pair<std::string, int>, RowOutcomes> done_;               // by test source and ptxas level
  // Reused by every row: one alias set of each kind of memory (a test's `.memory`), of as many views as a
  // test has addresses, and as many mapped one granularity into their ranges -- device memory's set aside
  // when the engine starts, the others' when a row first needs them (each grown when a row needs more) --
  // the surfaces, and the results' buffers.
  std::map<patterns::Memory, std::unique_ptr<vmm::AliasSet>> memory_;
  mutable std::map<patterns::Memory, std::string> memory_why_not_;  // what memory_kind() said, once a kind
  std::vector<std::unique_ptr<Surface>> surfaces_;
  // Two launches in flight (launch_and_count): launch i's register words, the words of its instances
  // outside the outcome table, their count (a word a slot) and the event after its count are slot i % 2's.
  static constexpr std::size_t kSlots = 2;
  std::array<DeviceBuffer<std::uint32_t>, kSlots> registers_, aside_;
  DeviceBuffer<unsigned long long> bins_;
  DeviceBuffer<std::uint32_t> aside_count_;
  MappedHostBuffer<std::uint32_t> aside_seen_;
  std::array<Event, kSlots> tallied_;
  DeviceBuffer<std::uint32_t> grid_counter_;  // stress grid_barrier's meeting point (kernel_abi.h)
};

}  // namespace vmmcheck::run
