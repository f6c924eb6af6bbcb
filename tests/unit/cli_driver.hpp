#pragma once
// What the CPU tests of the command line share: run the vmmcheck program in-process, know whether this
// machine has a GPU, write a scratch input file.
#include <cuda_runtime_api.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "ipc/child_process.hpp"

namespace vmmcheck::testing {

struct Outcome {
  int code;
  std::string out, err;
};

// run_app with "vmmcheck" in front of `args`.
inline Outcome cli(std::vector<std::string> args) {
  args.insert(args.begin(), "vmmcheck");
  std::ostringstream out, err;
  const int code = cli::run_app(args, out, err);
  return {code, out.str(), err.str()};
}

// The vmmcheck program itself in a child process, for runs whose cases run in children of their own (in
// process, run_app would start this test binary as the child). `out` is what it printed, both streams.
inline Outcome program(std::vector<std::string> args, std::chrono::milliseconds timeout = std::chrono::seconds(120)) {
  args.insert(args.begin(), VMMCHECK_BINARY);
  const ipc::ChildRun r = ipc::run_child(args, timeout);
  return {r.end == ipc::ChildRun::End::Exited ? r.code : -1, r.log_tail, r.error};
}

inline bool has_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  return ok;
}

// A file's bytes, to show that a command left it as it was.
inline std::string bytes_of(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `text` in a file called `name` in the temporary folder.
inline std::filesystem::path temp_file(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p;
}

}  // namespace vmmcheck::testing
