#pragma once
// Does the machine code keep every memory operation and fence the generated PTX asks for, of the right
// kind and strength, in an order the PTX model allows? (docs/toolchain.md). Each operation's code is
// found by its source line (codegen::Site): the instructions the line table gives that line. No GPU.
#include <string>
#include <vector>

#include "codegen/generator.hpp"
#include "toolchain/listing.hpp"

namespace vmmcheck::toolchain {

enum class Problem {
  Lost,       // no instruction of the operation's kind on its line: ptxas dropped it
  Merged,     // a lost load whose value an earlier load of the same word gave: two loads became one
  Weakened,   // its instruction is there, without the strength, scope or fence the PTX asks for
  Reordered,  // its instruction comes before one the thread's program order puts first, and the model orders the two
  // No instruction, but the model allows the transformation (a load's value an earlier access of the
  // same word gives, a store a later one overwrites, nothing ordered between): nothing the GPU shows can
  // come of it, but the row no longer tests the operation.
  Elided,
};
const char* name_of(Problem p);

struct Finding {
  Problem problem = Problem::Lost;
  codegen::Site site;                 // the operation
  std::string detail;                 // what is missing or which operation it passed
  std::vector<std::string> context;   // the thread's machine code around it, one instruction a line
};

struct MachineCheck {
  bool function_found = false;  // the kernel's function is in the listing
  unsigned copies = 1;          // how many times ptxas laid out each thread's code (unrolled rounds)
  std::vector<Finding> findings;
  std::vector<std::string> notes;  // instructions found off their line (texture and surface), for the curious
  bool intact() const { return function_found && findings.empty(); }
  // A finding the model does not allow: an outcome the GPU shows may be the compiler's.
  bool breaks_model() const {
    for (const Finding& f : findings)
      if (f.problem != Problem::Elided) return true;
    return false;
  }
};

// The instructions a PTX operation needs on Hopper-class GPUs (sm_90), in words, e.g. "a load .STRONG
// at .GPU or wider, then CCTL.IVALL": the rule the check applies, for reports and docs.
std::string requirement_of(const codegen::Site& site);

// Checks kernel `k`'s function in `sass` (read_sass of nvdisasm -g). `line_offset`: Compiled::line_offset
// when several kernels were compiled as one program. `source_file`: the suffix the line table's file
// names have for the kernel's own source (e.g. ".cu"); entries for other files (headers) are ignored.
MachineCheck check_machine_code(const codegen::Kernel& k, const std::vector<Function>& sass, int line_offset = 0,
                                const std::string& source_file = ".cu");

// The PTX statements on a site's line that carry its instruction (Site::ptx), for reports: "PTX line 212:
// ld.u32 %r9, [%rd7]". Empty when the PTX has none -- the front end lost it, not ptxas.
std::vector<PtxInstruction> ptx_of(const codegen::Site& site, const std::vector<PtxInstruction>& ptx, int line_offset = 0);

}  // namespace vmmcheck::toolchain
