#pragma once
// Machine code and PTX as text, read into instructions that name the source line they came from
// (docs/toolchain.md, "Finding each operation's code"). No GPU, no toolkit: CPU tests feed these
// hand-made listings.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vmmcheck::toolchain {

// One SASS instruction of `nvdisasm --print-line-info --print-code`.
struct Instruction {
  std::uint32_t offset = 0;  // /*0730*/
  std::string predicate;     // "@!P0", or empty
  std::string opcode;        // "LD.E.STRONG.GPU"
  std::string operands;      // "R11, desc[UR10][R10.64]"
  std::string file;          // the source file of its line-table entry (empty: none)
  int line = 0;              // its line there (0: none)
  std::string text() const;  // "/*0730*/ LD.E.STRONG.GPU R11, desc[UR10][R10.64] ;"
};

// A function's code, by offset.
struct Function {
  std::string name;
  std::vector<Instruction> code;
};

// nvdisasm -g -c output: each .text.<name> section a Function. Lines that are neither a section, a
// line-table comment nor an instruction (labels, directives) are skipped.
std::vector<Function> read_sass(const std::string& listing);

// One PTX instruction with the source line its `.loc` gives it.
struct PtxInstruction {
  int ptx_line = 0;     // 1-based line of the PTX text
  int source_line = 0;  // the .loc line in force (0: none yet)
  std::string text;     // the statement, trimmed, without the trailing ';'
};

// The statements of a PTX text (an inline-asm block on one line is one), in order, with their .loc lines (file numbers ignored: a generated
// program is one file).
std::vector<PtxInstruction> read_ptx(const std::string& ptx);

}  // namespace vmmcheck::toolchain
