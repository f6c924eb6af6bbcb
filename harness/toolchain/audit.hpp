#pragma once
// vmmcheck toolchain's work (docs/toolchain.md): each generated kernel compiled by each compiler the
// run can use -- NVRTC's own ptxas (what run loads), the toolkit's ptxas, any other given -- at each
// -O level asked, disassembled, and its machine code checked against the operations of its PTX.
// Also run's question for a row that failed: did the code it ran keep every operation? No GPU.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "codegen/generator.hpp"
#include "codegen/nvrtc.hpp"
#include "toolchain/listing.hpp"
#include "toolchain/machine_check.hpp"
#include "toolchain/once_each.hpp"
#include "toolchain/tools.hpp"

namespace vmmcheck::toolchain {

struct Compiler {
  std::string name;     // "NVRTC 13.0", "ptxas 12.4.131"
  std::string ptxas;    // the binary; empty: NVRTC's own (codegen::compile)
  std::string version;  // "13.0" (NVRTC), "12.4.131" (ptxas --version)
};

struct Settings {
  std::vector<std::string> ptxas;   // more ptxas binaries (--ptxas)
  bool toolkit_ptxas = true;        // the toolkit's ptxas too, if there is one
  bool nvrtc = true;                // NVRTC's own ptxas (what run loads)
  std::vector<int> levels{3};       // ptxas -O levels
  int arch = 90;
  std::string disassembler;         // empty: find_disassembler's choice
};

// One kernel, one compiler, one level.
struct KernelAudit {
  Compiler compiler;
  int level = 3;
  std::string lowered_to;          // the PTX .version given to an older ptxas, if lowered
  std::string error;               // the compile or disassembly failed: why (check not made)
  MachineCheck check;
  std::vector<PtxInstruction> ptx;  // the PTX the compiler was given, read
  std::string ptx_text;
  std::string cubin;
  std::string sass;                 // the disassembly of the kernel's function only
  int line_offset = 0;
};

class Auditor {
 public:
  // Throws std::runtime_error when there is no disassembler (the why of find_disassembler) or a --ptxas
  // binary is not an executable.
  explicit Auditor(Settings settings);

  const std::vector<Compiler>& compilers() const { return compilers_; }
  const std::string& disassembler() const { return disassembler_; }
  const std::string& disassembler_version() const { return disassembler_version_; }
  const Settings& settings() const { return settings_; }

  // Compiles `kernels` with NVRTC ahead, many to a program (codegen::compile_program), the programs on
  // every core, at each level and for the PTX the other ptxas binaries are given: a program's one CUBIN
  // is then assembled and disassembled once for all its kernels (nvdisasm takes half a second to start).
  void prepare(const std::vector<const codegen::Kernel*>& kernels);
  // How many consecutive kernels of prepare()'s list share a program.
  std::size_t kernels_per_program() const { return per_program_; }

  // Safe to call from several threads at once.
  KernelAudit audit(const codegen::Kernel& k, const Compiler& c, int level);

 private:
  const std::vector<Function>& disassembled(const std::string& cubin);
  std::string assembled(const Compiler& c, int level, const std::string& ptx, std::string& lowered_to);
  // NVRTC's compile of `k` at `level`: its program from prepare(), or `k` alone.
  std::pair<std::shared_ptr<const codegen::Program>, int> nvrtc(const codegen::Kernel& k, int level);

  Settings settings_;
  std::size_t per_program_ = 1;
  std::vector<Compiler> compilers_;
  std::string disassembler_, disassembler_version_;
  ScratchDir scratch_{"toolchain"};
  std::mutex mutex_;
  struct Assembled {
    std::string cubin, lowered_to;
  };
  OnceEach<std::vector<Function>> listings_;  // by CUBIN
  OnceEach<Assembled> cubins_;                // by ptxas, level and PTX
  // prepare()'s programs, by (kernel name, level): the program and the kernel's line offset in it.
  std::map<std::pair<std::string, int>, std::pair<std::shared_ptr<const codegen::Program>, int>> programs_;
};

// run's question (docs/toolchain.md, "In run"): the machine code of `compiled` -- the CUBIN the row ran --
// checked against `k`'s operations. Empty `why_unchecked` and the check; or why it could not be made.
MachineCheck check_compiled(const codegen::Kernel& k, const codegen::Compiled& compiled, std::string& why_unchecked);

// A finding in words, for the console and reproducers: the problem, the thread and operation, what is
// wrong, the PTX line, and the machine code around it; each line begins with `indent`.
std::string finding_text(const KernelAudit& a, const Finding& f, const std::string& indent);

// Runs each(0) .. each(count - 1) on as many threads as there are cores (or tasks), each index once.
void on_every_core(std::size_t count, const std::function<void(std::size_t)>& each);

// The function's part of a listing, as nvdisasm printed it (for reports and reproducers).
std::string function_text(const std::vector<Function>& sass, const std::string& name);

}  // namespace vmmcheck::toolchain
