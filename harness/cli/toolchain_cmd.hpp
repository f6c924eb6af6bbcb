#pragma once
// `vmmcheck toolchain FILE|DIR...` (docs/toolchain.md): for every litmus row, its generated kernel
// compiled as run would -- NVRTC's ptxas, the toolkit's, any --ptxas, at each -O asked -- disassembled,
// and checked thread by thread: every memory operation and fence of the PTX has its machine-code
// counterpart, of the right kind and strength, in an order the model allows. No GPU. Exit 1 if any
// kernel's code lost, merged, weakened, reordered or elided one; 77 with no disassembler.
#include <iosfwd>

#include "cli/options.hpp"

namespace vmmcheck::cli {

int cmd_toolchain(const Options& o, std::ostream& out, std::ostream& err);

}  // namespace vmmcheck::cli
