#include "codegen/nvrtc.hpp"

#include <nvrtc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <vector>

// Compiling a generated kernel with NVRTC, and the two caches in front of it. The cache key covers
// everything the CUBIN depends on: the source, the headers it includes, the options, the arch and
// NVRTC's version -- so a changed header or a new toolkit compiles afresh.
namespace vmmcheck::codegen {
namespace {

namespace fs = std::filesystem;

// nvrtcProgram, destroyed on every path out.
class NvrtcProgram {
 public:
  NvrtcProgram(const std::string& name, const std::string& source) {
    std::vector<const char*> headers, names;
    for (const Header& h : kernel_headers()) {
      headers.push_back(h.text);
      names.push_back(h.name);
    }
    const std::string file = name + ".cu";
    check(nvrtcCreateProgram(&program_, source.c_str(), file.c_str(), static_cast<int>(headers.size()), headers.data(),
                             names.data()),
          "creating", "");
  }
  ~NvrtcProgram() {
    if (program_) nvrtcDestroyProgram(&program_);
  }
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;

  nvrtcProgram get() const { return program_; }

  std::string log() const {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program_, &size) != NVRTC_SUCCESS || size == 0) return {};
    std::string log(size, '\0');
    if (nvrtcGetProgramLog(program_, log.data()) != NVRTC_SUCCESS) return {};
    while (!log.empty() && log.back() == '\0') log.pop_back();  // the size counts the terminator
    return log;
  }

  std::string ptx() const {
    std::size_t size = 0;
    check(nvrtcGetPTXSize(program_, &size), "getting the PTX of", log());
    std::string ptx(size, '\0');
    check(nvrtcGetPTX(program_, ptx.data()), "getting the PTX of", log());
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
    return ptx;
  }

  std::string cubin() const {
    std::size_t size = 0;
    check(nvrtcGetCUBINSize(program_, &size), "getting the CUBIN of", log());
    std::string cubin(size, '\0');
    check(nvrtcGetCUBIN(program_, cubin.data()), "getting the CUBIN of", log());
    return cubin;
  }

  static void check(nvrtcResult status, const char* doing, const std::string& log) {
    if (status != NVRTC_SUCCESS)
      throw CompileError(std::string("NVRTC: ") + nvrtcGetErrorString(status) + " " + doing + " a generated litmus kernel", log);
  }

 private:
  nvrtcProgram program_ = nullptr;
};

// `ptxas_level` 0-3 sets ptxas's optimisation level; -1 leaves ptxas its default (3), or takes
// VMMCHECK_LITMUS_PTXAS_O=N (0-3), for experiments.
std::vector<std::string> options_for(int arch, int ptxas_level) {
  // Line information does not change the machine code (docs/toolchain.md); it lets vmmcheck toolchain
  // find each operation's instructions.
  const std::string target = (ptxas_level == kPtxOnly ? "compute_" : "sm_") + std::to_string(arch);
  std::vector<std::string> o{"--gpu-architecture=" + target, "-std=c++17", "--generate-line-info"};
  if (const char* env = std::getenv("VMMCHECK_LITMUS_PTXAS_O");
      ptxas_level == -1 && env && std::strlen(env) == 1 && env[0] >= '0' && env[0] <= '3')
    ptxas_level = env[0] - '0';
  if (ptxas_level >= 0 && ptxas_level <= 3) o.push_back("--ptxas-options=-O" + std::to_string(ptxas_level));
  return o;
}


// 128 bits of FNV-1a (two bases): a cache key, not a defence against crafted collisions.
std::string key_of(const Kernel& kernel, int arch, int ptxas_level) {
  std::string material = kernel.source;
  material += '\0';
  for (const Header& h : kernel_headers()) material += std::string(h.name) + '\0' + h.text + '\0';
  for (const std::string& o : options_for(arch, ptxas_level)) material += o + '\0';
  material += nvrtc_version();
  const auto fnv = [&](std::uint64_t h) {
    for (unsigned char c : material) h = (h ^ c) * 0x100000001b3ull;
    return h;
  };
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(fnv(0xcbf29ce484222325ull)),
                static_cast<unsigned long long>(fnv(0x84222325cbf29ce4ull)));
  return buf;
}

Compiled compile_now(const std::string& name, const std::string& source, int arch, int ptxas_level) {
  NvrtcProgram program(name, source);
  const std::vector<std::string> options = options_for(arch, ptxas_level);
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult status = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
  Compiled out;
  out.log = program.log();
  if (status != NVRTC_SUCCESS)
    throw CompileError(std::string("NVRTC: ") + nvrtcGetErrorString(status) + " compiling " + name + " for sm_" +
                           std::to_string(arch),
                       out.log);
  if (ptxas_level != kPtxOnly) out.cubin = program.cubin();
  out.ptx = program.ptx();
  return out;
}

// --- The disk cache: one file per key, written atomically:
//     "<magic>\n<line offset> <log bytes> <ptx bytes>\n<log><ptx><cubin>" ---

constexpr const char* kMagic = "vmmcheck-nvrtc-cache 2";

// $VMMCHECK_NVRTC_CACHE ("off": none), else $XDG_CACHE_HOME/vmmcheck/nvrtc, else ~/.cache/vmmcheck/nvrtc.
std::optional<fs::path> cache_dir() {
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? v : "";
  };
  const std::string chosen = env("VMMCHECK_NVRTC_CACHE");
  if (chosen == "off") return std::nullopt;
  if (!chosen.empty()) return fs::path(chosen);
  const std::string xdg = env("XDG_CACHE_HOME");
  if (!xdg.empty() && fs::path(xdg).is_absolute()) return fs::path(xdg) / "vmmcheck" / "nvrtc";  // XDG: relative is invalid
  const std::string home = env("HOME");
  if (!home.empty()) return fs::path(home) / ".cache" / "vmmcheck" / "nvrtc";
  return std::nullopt;
}

bool looks_like_elf(const std::string& cubin) { return cubin.size() > 4 && cubin.compare(0, 4, "\x7f" "ELF") == 0; }

std::optional<Compiled> read_cached(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string magic;
  std::size_t log_size = 0, ptx_size = 0;
  Compiled c;
  if (!std::getline(in, magic) || magic != kMagic || !(in >> c.line_offset >> log_size >> ptx_size) || in.get() != '\n')
    return std::nullopt;
  c.log.resize(log_size);
  if (log_size > 0 && !in.read(c.log.data(), static_cast<std::streamsize>(log_size))) return std::nullopt;
  c.ptx.resize(ptx_size);
  if (ptx_size > 0 && !in.read(c.ptx.data(), static_cast<std::streamsize>(ptx_size))) return std::nullopt;
  c.cubin.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!looks_like_elf(c.cubin)) return std::nullopt;  // damaged: compile again (and overwrite it)
  c.from_cache = true;
  return c;
}

// Best effort: a directory that cannot be made or written only means no disk cache.
void write_cached(const fs::path& dir, const fs::path& file, const Compiled& c) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = dir / (file.filename().string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << kMagic << '\n' << c.line_offset << ' ' << c.log.size() << ' ' << c.ptx.size() << '\n';
    out.write(c.log.data(), static_cast<std::streamsize>(c.log.size()));
    out.write(c.ptx.data(), static_cast<std::streamsize>(c.ptx.size()));
    out.write(c.cubin.data(), static_cast<std::streamsize>(c.cubin.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, file, ec);  // atomic on one file system: readers see the old file or the whole new one
  if (ec) fs::remove(tmp, ec);
}

// --- The in-process cache ---

std::mutex memory_mutex;
std::map<std::string, Compiled>& memory_cache() {
  static std::map<std::string, Compiled> cache;
  return cache;
}

std::optional<Compiled> from_memory(const std::string& key) {
  std::lock_guard<std::mutex> lock(memory_mutex);
  const auto it = memory_cache().find(key);
  if (it == memory_cache().end()) return std::nullopt;
  Compiled c = it->second;
  c.from_cache = true;
  return c;
}

void remember(const std::string& key, Compiled c) {
  c.from_cache = false;
  std::lock_guard<std::mutex> lock(memory_mutex);
  memory_cache().emplace(key, std::move(c));
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// A cache hit for `key`, from the process's cache or the disk's (remembered in the process then).
std::optional<Compiled> cached(const std::string& key) {
  if (auto hit = from_memory(key)) return hit;
  if (const std::optional<fs::path> dir = cache_dir())
    if (auto hit = read_cached(*dir / (key + ".cubin"))) {
      remember(key, *hit);
      return hit;
    }
  return std::nullopt;
}

void store(const std::string& key, const Compiled& c) {
  if (const std::optional<fs::path> dir = cache_dir()) write_cached(*dir, *dir / (key + ".cubin"), c);
  remember(key, c);
}

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> nvrtc_archs() {
  int n = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) return {};
  std::vector<int> archs(static_cast<std::size_t>(n));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return {};
  std::sort(archs.begin(), archs.end());
  return archs;
}

Program compile_program(const std::vector<const Kernel*>& kernels, int arch, int ptxas_level) {
  if (kernels.empty()) throw std::invalid_argument("compile_program: no kernel");
  // The first kernel's text, then each other kernel's function (the text before it is the same in every
  // generated kernel).
  const auto lines = [](const std::string& s, std::size_t end) {
    return static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  };
  Program p;
  std::string source = kernels.front()->source;
  p.line_offsets.push_back(0);
  for (std::size_t m = 1; m < kernels.size(); ++m) {
    const Kernel& k = *kernels[m];
    source += "\n";
    p.line_offsets.push_back(lines(source, source.size()) - lines(k.source, k.function_at));
    source += k.source.substr(k.function_at);
  }
  const std::string name = kernels.size() == 1 ? kernels.front()->name
                                               : kernels.front()->name + "_and_" + std::to_string(kernels.size() - 1) + "_more";
  p.compiled = compile_now(name, source, arch, ptxas_level);
  return p;
}

std::vector<Outcome> compile_together(const std::vector<const Kernel*>& kernels, int arch, int ptxas_level) {
  std::vector<Outcome> out(kernels.size());
  std::vector<std::string> keys;
  std::vector<std::size_t> misses;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto started = std::chrono::steady_clock::now();
    keys.push_back(key_of(*kernels[i], arch, ptxas_level));
    if (auto hit = cached(keys[i])) {
      out[i].compiled = std::move(*hit);
      out[i].compiled.seconds = since(started);
    } else {
      misses.push_back(i);
    }
  }
  const auto alone = [&](std::size_t i) {
    const auto started = std::chrono::steady_clock::now();
    try {
      out[i].compiled = compile_now(kernels[i]->name, kernels[i]->source, arch, ptxas_level);
      store(keys[i], out[i].compiled);
      out[i].compiled.seconds = since(started);
    } catch (...) {
      out[i].error = std::current_exception();
    }
  };
  if (misses.size() == 1) alone(misses.front());
  if (misses.size() < 2) return out;
  // One program (compile_program); each kernel's cache entry is its CUBIN, with the kernel's line offset.
  const auto started = std::chrono::steady_clock::now();
  std::vector<const Kernel*> missing;
  for (std::size_t i : misses) missing.push_back(kernels[i]);
  try {
    const Program together = compile_program(missing, arch, ptxas_level);
    const double share = since(started) / static_cast<double>(misses.size());
    for (std::size_t m = 0; m < misses.size(); ++m) {
      const std::size_t i = misses[m];
      out[i].compiled = together.compiled;
      out[i].compiled.line_offset = together.line_offsets[m];
      store(keys[i], out[i].compiled);
      out[i].compiled.seconds = share;
    }
  } catch (const CompileError&) {
    for (std::size_t i : misses) alone(i);  // each on its own: the error, and its log, go to its kernel
  }
  return out;
}

Compiled compile(const Kernel& kernel, int arch, int ptxas_level) {
  Outcome o = std::move(compile_together({&kernel}, arch, ptxas_level).front());
  if (o.error) std::rethrow_exception(o.error);
  return o.compiled;
}

}  // namespace vmmcheck::codegen
