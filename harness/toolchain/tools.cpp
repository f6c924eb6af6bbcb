#include "toolchain/tools.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <thread>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "common/unique_fd.hpp"
#include "ipc/child_process.hpp"

namespace vmmcheck::toolchain {
namespace {

namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool executable(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// `name` on PATH, then in $CUDA_HOME/bin and /usr/local/cuda/bin.
std::string find_program(const std::string& name) {
  std::vector<fs::path> places;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream in(path);
    for (std::string dir; std::getline(in, dir, ':');)
      if (!dir.empty()) places.push_back(fs::path(dir) / name);
  }
  if (const char* home = std::getenv("CUDA_HOME")) places.push_back(fs::path(home) / "bin" / name);
  places.push_back(fs::path("/usr/local/cuda/bin") / name);
  for (const fs::path& p : places)
    if (executable(p)) return p.string();
  return {};
}

}  // namespace

ToolRun run_tool(const std::vector<std::string>& argv, int timeout_s) {
  const ScratchDir dir("tool");
  const std::string out_path = dir.file("out"), err_path = dir.file("err");
  ToolRun run;
  {
    UniqueFd out(::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    UniqueFd err(::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (!out.held() || !err.held()) throw std::runtime_error("cannot open output files in " + dir.path().string());
    std::string error;
    const pid_t pid = ipc::spawn_in_group(argv, {{out.get(), 1}, {err.get(), 2}}, error);
    if (pid < 0) {
      run.err = "cannot start " + argv.front() + ": " + error;
      return run;
    }
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    for (;;) {
      const pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid || (done < 0 && errno != EINTR)) break;
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(-pid, SIGKILL);  // the tool and anything it started: its own process group
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        run.timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    run.status = !run.timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  run.out = read_all(out_path);
  run.err = read_all(err_path);
  if (run.timed_out)
    run.err += (run.err.empty() || run.err.back() == '\n' ? "" : "\n") + argv.front() + " ran past " + std::to_string(timeout_s) +
               " s and was killed\n";
  return run;
}

std::string find_disassembler(const std::string& given, std::string& why) {
  if (!given.empty()) {
    if (executable(given)) return given;
    why = given + " is not an executable file";
    return {};
  }
#ifdef VMMCHECK_NVDISASM
  if (executable(VMMCHECK_NVDISASM)) return VMMCHECK_NVDISASM;
#endif
  if (std::string p = find_program("nvdisasm"); !p.empty()) return p;
  why = "no nvdisasm on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin"
#ifdef VMMCHECK_NVDISASM
        ", nor at " VMMCHECK_NVDISASM
#endif
        " (ci/setup-deps.sh installs the nvidia-cuda-nvdisasm wheel; --disassembler PATH names one)";
  return {};
}

std::string find_toolkit_ptxas() { return find_program("ptxas"); }

std::string version_in(const std::string& version_text) {
  static const std::regex v(R"re(V(\d+\.\d+\.\d+))re");
  std::smatch m;
  if (std::regex_search(version_text, m, v)) return m[1].str();
  return {};
}

std::string tool_version(const std::string& path) { return version_in(run_tool({path, "--version"}).out); }

std::string disassemble(const std::string& nvdisasm, const std::string& cubin, const ScratchDir& dir) {
  static std::atomic<unsigned> counter{0};
  const std::string file = dir.write("kernel" + std::to_string(counter++) + ".cubin", cubin);
  ToolRun r = run_tool({nvdisasm, "--print-line-info", "--print-code", file});
  if (r.status != 0) throw std::runtime_error(nvdisasm + " failed on a CUBIN: " + r.err);
  return std::move(r.out);
}

std::string with_ptx_version(const std::string& ptx, const std::string& version) {
  static const std::regex line(R"re((^|\n)\.version[ \t]+[0-9]+\.[0-9]+)re");
  return std::regex_replace(ptx, line, "$1.version " + version, std::regex_constants::format_first_only);
}

std::string ptxas_compile(const std::string& ptxas, const std::string& ptx, int arch, int level, const ScratchDir& dir,
                          std::string* lowered_to) {
  static std::atomic<unsigned> counter{0};
  const std::string stem = dir.file("p" + std::to_string(counter++));
  const auto once = [&](const std::string& text) {
    const std::string in = dir.write(fs::path(stem + ".ptx").filename().string(), text);
    return run_tool({ptxas, "-arch=sm_" + std::to_string(arch), "-O" + std::to_string(level), "-lineinfo", in, "-o", stem + ".cubin"});
  };
  ToolRun r = once(ptx);
  static const std::regex older(R"re(Unsupported \.version \d+\.\d+; current version is '(\d+\.\d+)')re");
  std::smatch m;
  if (r.status != 0 && std::regex_search(r.err, m, older)) {
    const std::string version = m[1].str();
    if (lowered_to) *lowered_to = version;
    r = once(with_ptx_version(ptx, version));
  }
  if (r.status != 0) throw std::runtime_error(ptxas + " -O" + std::to_string(level) + " failed: " + r.err);
  return read_all(stem + ".cubin");
}

}  // namespace vmmcheck::toolchain
