// The CPU-only build's side of cli/gpu_commands.hpp (-DVMMCHECK_GPU=OFF): it has no run layer, no kernels,
// no NVRTC and no CUDA toolkit, so each command that needs them is one clear error, not a missing
// subcommand: the parser, --help and the environment twins are the GPU build's.
#include "cli/gpu_commands.hpp"

#include "common/error.hpp"

namespace vmmcheck::cli {
namespace {

[[noreturn]] void needs_gpu_build(const std::string& what) {
  throw InputError("built with -DVMMCHECK_GPU=OFF: `" + what +
                   "` needs the GPU build (configure with the CUDA toolkit and the default -DVMMCHECK_GPU=ON)");
}

const char* name_of(Command c) {
  switch (c) {
    case Command::Run: return "run";
    case Command::Probe: return "probe";
    case Command::Tune: return "tune";
    case Command::Selftest: return "selftest";
    case Command::Toolchain: return "toolchain";
    case Command::Bench: return "bench";
    case Command::IsolatedCase: return "isolated-case";
    case Command::IpcPeer: return "ipc-peer";
    case Command::List: return "list";
    case Command::Explain: return "explain";
    case Command::Model: return "model";
  }
  return "?";
}

}  // namespace

int run_gpu_command(const Options& o, std::ostream&, std::ostream&) { needs_gpu_build(name_of(o.command)); }

HereAnswers here_answers(const Options&, const Selected&) { needs_gpu_build("list --here"); }

}  // namespace vmmcheck::cli
