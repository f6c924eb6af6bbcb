#pragma once
// A reproducer per finding, fit for a bug report (docs/toolchain.md, "Reproducers"): the generated
// kernel (.cu and its headers), the PTX the compiler was given, the machine code it made, a reduced
// kernel holding only the broken thread's operations (and whether it breaks the same way), the
// commands that show it with the toolkit's own programs, and the finding in words.
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/generator.hpp"
#include "toolchain/audit.hpp"

namespace vmmcheck::toolchain {

// The reduced kernel of one thread of `k`: its operations' asm statements verbatim, on plain pointer
// arguments, its registers written out. Empty `source` when the thread reads a texture or a surface
// (those need objects the reduced kernel does not make).
codegen::Kernel reduced_kernel(const codegen::Kernel& k, unsigned thread);

// Writes the reproducer of `audit` (a kernel whose code broke) under `dir`, in a folder named for the
// kernel, compiler and level; returns that folder. `auditor` checks the reduced kernel with the same
// compiler and level.
std::filesystem::path write_repro(const std::filesystem::path& dir, const codegen::Kernel& k, const std::vector<std::string>& rows,
                                  const KernelAudit& audit, Auditor& auditor);

}  // namespace vmmcheck::toolchain
