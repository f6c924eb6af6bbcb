#pragma once
// A litmus row's record (docs/litmus.md, "Running a row"): what the GPU showed -- each register outcome
// and how often -- held against the PTX proxy model. Every outcome observed is looked up in the model's
// outcome space of the shape (enumerated once per shape): one the model forbids is a Fail; the row's own condition says which outcome the file asks about,
// and how often it showed is the row's rate. No GPU here: the engine (run/rows/engine.hpp) counts,
// this judges, and CPU tests check it on recorded counts.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "litmus/file.hpp"
#include "litmus/rows.hpp"
#include "run/records/result.hpp"
#include "toolchain/machine_check.hpp"

namespace vmmcheck::run {

// What the GPU showed for one litmus test: register values (in `registers` order) -> instances.
struct RowOutcomes {
  std::vector<std::string> registers;
  std::map<std::vector<std::uint32_t>, std::uint64_t> counts;
  std::uint64_t instances = 0;
  double gpu_seconds = 0;
  double compile_seconds = 0;       // NVRTC's time for the row's kernel (ahead of the row, on another thread)
  double compile_wait_seconds = 0;  // how long the row waited for it
  bool compiled_from_cache = false;
  bool counted_on_gpu = false;      // by the tally (else on the host: the outcomes fit no table)
};

// What the engine fills every register word with before each launch (a byte pattern: memset): a word the
// kernel never wrote still holds it, and no litmus value is this large. A row that shows it ran a
// kernel whose placement missed instances -- the harness's fault, an Error, never an outcome.
inline constexpr std::uint32_t kUnwritten = 0xFEFEFEFEu;
static_assert(kUnwritten == (kUnwritten & 0xFFu) * 0x01010101u, "one byte repeated: what cudaMemset writes");

// A result for the row, status Error until judged (identity, rule, axes filled in).
CaseResult begin_row_result(const litmus::Row& row);

// Fills r's histogram ("r0=1 r1=0" -> count), instances, weak (instances showing the outcome the row asks
// about: its condition for permit/check, the condition's failure for assert; preconditions met), status
// (Fail if any outcome the model forbids was observed) and reason.
void judge_row(const litmus::Row& row, const RowOutcomes& seen, CaseResult& r);

// Whether the machine code a row ran keeps every memory operation and fence of its PTX
// (toolchain/machine_check.hpp), and which compiler made it.
struct MachineCodeVerdict {
  toolchain::MachineCheck check;
  std::string why_unchecked;  // not empty: no check was made (no disassembler, say), and why
  std::string compiler;       // "ptxas of NVRTC 13.0"
};

// Who a Fail belongs to, decided by the machine code (docs/toolchain.md, "In run"): when the code the GPU
// ran lost, merged, weakened or reordered an operation, the forbidden outcomes may be the compiler's --
// a toolchain finding, reported as a Warning naming the compiler and the operation (run --strict fails
// it); when the code is intact, the GPU showed an outcome the model forbids: the Fail stands and says
// the code was checked. Unchecked (no disassembler), the Fail stands and says why. Nothing changes for a
// row that did not fail.
void attribute_failure(const MachineCodeVerdict& code, CaseResult& r);

// The experiment of run --rerun-unoptimized: what the same row showed compiled with ptxas -O0, added to
// the reason of a row that failed or was attributed to the compiler. It changes no status.
void note_unoptimized(const litmus::Row& row, const RowOutcomes& unoptimized, CaseResult& r);

}  // namespace vmmcheck::run
