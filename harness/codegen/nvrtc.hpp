#pragma once
// Generated kernels compiled at run time with NVRTC, cached by source hash: in the process, and on disk
// under $XDG_CACHE_HOME/vmmcheck/nvrtc (or ~/.cache/...), so a second run compiles nothing.
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/generator.hpp"

namespace vmmcheck::codegen {

// A program NVRTC refused: the log says why.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& what, std::string log) : std::runtime_error(what), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

struct Compiled {
  std::string cubin;     // machine code for sm_<arch>, with line information (Site::line)
  std::string ptx;       // the PTX NVRTC gave its ptxas
  std::string log;       // NVRTC's log (warnings)
  // How many lines below its own place in Kernel::source the kernel's function sits in the program
  // compiled (compile_together puts several kernels in one): a Site's line in the CUBIN's line table
  // is site.line + line_offset.
  int line_offset = 0;
  bool from_cache = false;
  double seconds = 0;    // the time NVRTC took (from a cache: the time the cache took)
};

// NVRTC's version, e.g. "13.0": its ptxas is the one run uses.
std::string nvrtc_version();
// The SM architectures this NVRTC compiles for (nvrtcGetSupportedArchs), ascending: 75, 80, ... 120.
std::vector<int> nvrtc_archs();

// A ptxas_level that asks for the PTX alone (compute_<arch>: no ptxas, no CUBIN): what vmmcheck toolchain
// gives another ptxas, without the work of NVRTC's own.
inline constexpr int kPtxOnly = -2;

// Compiles `kernel` for sm_<arch> (e.g. 90). Needs no GPU. Throws CompileError. `ptxas_level` 0-3 sets
// ptxas's optimisation level (-O<n>); -1, ptxas's own default (-O3). run --litmus compiles at the
// default, and again at 0 to tell a compiler's transformation from the GPU's (docs/litmus.md).
Compiled compile(const Kernel& kernel, int arch, int ptxas_level = -1);

// Compiles `kernels` (generated ones: codegen/generator.hpp) as compile() does, those the caches lack in
// one NVRTC program: faster than one kernel a program (ci/results/engine/nvrtc-batch.txt at ce0a56a, in
// git history: the H200's host, the shipped rows' 259 kernels on 16 threads). A program that fails is
// compiled again kernel by kernel, so each error, and its log, belongs to its own kernel.
struct Outcome {
  Compiled compiled;
  std::exception_ptr error;  // a CompileError
};
std::vector<Outcome> compile_together(const std::vector<const Kernel*>& kernels, int arch, int ptxas_level = -1);

// `kernels` as one NVRTC program, through no cache: one CUBIN and one PTX for all, and each kernel's
// line offset in it (Compiled::line_offset), in `kernels` order. Throws CompileError. vmmcheck
// toolchain compiles this way, so that one disassembly serves many kernels.
struct Program {
  Compiled compiled;
  std::vector<int> line_offsets;
};
Program compile_program(const std::vector<const Kernel*>& kernels, int arch, int ptxas_level = -1);

}  // namespace vmmcheck::codegen
