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
  std::string cubin;     // machine code for sm_<arch>
  std::string log;       // NVRTC's log (warnings)
  bool from_cache = false;
  double seconds = 0;    // the time NVRTC took (from a cache: the time the cache took)
};

// Compiles `kernel` for sm_<arch> (e.g. 90). Needs no GPU. Throws CompileError. `ptxas_level` 0-3 sets
// ptxas's optimisation level (-O<n>); -1, ptxas's own default (-O3). run --litmus compiles at the
// default, and again at 0 to tell a compiler's transformation from the GPU's (docs/litmus.md).
Compiled compile(const Kernel& kernel, int arch, int ptxas_level = -1);

// Compiles `kernels` (generated ones: codegen/generator.hpp) as compile() does, those the caches lack in
// one NVRTC program: faster than one kernel a program (ci/results/engine/nvrtc-batch.txt, the H200's
// host: the shipped rows' 259 kernels on 16 threads). A program that fails is compiled again kernel by
// kernel, so each error, and its log, belongs to its own kernel.
struct Outcome {
  Compiled compiled;
  std::exception_ptr error;  // a CompileError
};
std::vector<Outcome> compile_together(const std::vector<const Kernel*>& kernels, int arch, int ptxas_level = -1);

}  // namespace vmmcheck::codegen
