#pragma once
// The programs vmmcheck toolchain runs (docs/toolchain.md): a disassembler that prints the line table
// (nvdisasm: the toolkit's, or the nvidia-cuda-nvdisasm wheel ci/setup-deps.sh installs), and ptxas
// binaries (the toolkit's, or any given). cuobjdump prints no line table, so it cannot find an
// operation's code: it is not used. Each program runs as a child process with its output in files.
#include <optional>
#include <string>
#include <vector>

#include "common/scratch_dir.hpp"

namespace vmmcheck::toolchain {

struct ToolRun {
  int status = -1;  // exit status; -1: did not start, died by a signal or ran out of time
  std::string out, err;
  bool timed_out = false;
};
// The longest an external tool (ptxas, nvdisasm, cuobjdump) may run: ptxas of the largest shipped kernel
// at -O3 takes well under a second; a tool that runs this long is stuck (or given a program that never
// exits as --ptxas).
inline constexpr int kToolTimeoutSeconds = 120;
// Runs argv (argv[0] a path) to its end, collecting stdout and stderr; past `timeout_s` seconds its whole
// process group is killed, and the run says so (timed_out, and a line in err).
ToolRun run_tool(const std::vector<std::string>& argv, int timeout_s = kToolTimeoutSeconds);

// The disassembler to use: `given` if not empty (an error if it is not an executable), else the one
// found at build time (VMMCHECK_NVDISASM), else nvdisasm on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin.
// Empty when there is none; `why` then says where it looked.
std::string find_disassembler(const std::string& given, std::string& why);

// The toolkit's ptxas (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin), or empty.
std::string find_toolkit_ptxas();

// "13.0.88" from `<tool> --version` ("Cuda compilation tools, release 13.0, V13.0.88"); empty if unknown.
std::string tool_version(const std::string& path);
// The same from the text such a --version printed.
std::string version_in(const std::string& version_text);

// nvdisasm --print-line-info --print-code of `cubin`. Throws std::runtime_error with its stderr.
std::string disassemble(const std::string& nvdisasm, const std::string& cubin, const ScratchDir& dir);

// `ptx` through the ptxas at `ptxas` for sm_<arch> at -O<level> with line information. A ptxas older
// than the PTX's .version says which it supports ("Unsupported .version 9.0; current version is
// '8.4'"): the text is compiled again with that .version, and `lowered_to` says so. Throws
// std::runtime_error with ptxas's messages.
std::string ptxas_compile(const std::string& ptxas, const std::string& ptx, int arch, int level, const ScratchDir& dir,
                          std::string* lowered_to = nullptr);

// `ptx` with its `.version X.Y` line set to `version`.
std::string with_ptx_version(const std::string& ptx, const std::string& version);

}  // namespace vmmcheck::toolchain
