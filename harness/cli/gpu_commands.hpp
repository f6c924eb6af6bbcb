#pragma once
// The commands that need the GPU build -- run, probe, tune, selftest, toolchain, bench and the children
// (isolated-case, ipc-peer) -- and list --here's answers, behind one seam, so run_app() and the commands
// that need no GPU (list, explain, model: cli/app.cpp) are one code in both builds. The GPU build links
// cli/gpu_commands.cpp; the CPU-only build (-DVMMCHECK_GPU=OFF: no CUDA toolkit, no run layer, no
// NVRTC) links cli/gpu_commands_off.cpp, where each says, as bad input (exit 2), that it needs the GPU
// build -- not 77, which would pass for "no GPU here" and skip a CI job's run quietly.
#include <ostream>
#include <string>
#include <vector>

#include "cli/cases.hpp"
#include "cli/options.hpp"

namespace vmmcheck::cli {

// Runs o.command, one of the commands above (never list, explain or model).
int run_gpu_command(const Options& o, std::ostream& out, std::ostream& err);

// list --here: the support stage's answer for each case and litmus row on this machine ("" where it can run).
struct HereAnswers {
  std::vector<std::string> cases, rows;
};
HereAnswers here_answers(const Options& o, const Selected& s);

}  // namespace vmmcheck::cli
