#include "toolchain/audit.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <utility>

namespace vmmcheck::toolchain {
namespace {

// A tool the user named (`option` PATH) that is not `tool` -- its --version, within 10 s, does not name it --
// is the user's input: refused, not "cannot check here". `a_tool` is its name with its article. Its
// version ("13.0.88"; empty if the text gives none), from the same run.
std::string version_unless_refused(const std::string& option, const std::string& path, const std::string& tool,
                                   const std::string& a_tool) {
  const ToolRun version = run_tool({path, "--version"}, 10);
  if (version.status == 0 && version.out.find(tool) != std::string::npos) return version_in(version.out);
  throw std::invalid_argument(option + " " + path + ": not " + a_tool + " that runs (" +
                              (version.timed_out ? std::string("no answer to --version in 10 s")
                                                 : "--version " + std::string(version.status != 0 ? "failed" : "did not name " + tool)) +
                              ")");
}

}  // namespace

Auditor::Auditor(Settings settings) : settings_(std::move(settings)) {
  std::string why;
  disassembler_ = find_disassembler(settings_.disassembler, why);
  if (disassembler_.empty()) throw std::runtime_error("no disassembler: " + why);
  disassembler_version_ = settings_.disassembler.empty()
                             ? tool_version(disassembler_)
                             : version_unless_refused("--disassembler", disassembler_, "nvdisasm", "an nvdisasm");
  if (settings_.nvrtc) compilers_.push_back(Compiler{"NVRTC " + codegen::nvrtc_version(), "", codegen::nvrtc_version()});
  // The user's --ptxas are checked first (a wrong one is refused before any other tool runs); the
  // toolkit's ptxas comes first among the compilers.
  std::vector<std::pair<std::string, std::string>> binaries;  // path, version
  for (const std::string& p : settings_.ptxas) binaries.emplace_back(p, version_unless_refused("--ptxas", p, "ptxas", "a ptxas"));
  if (settings_.toolkit_ptxas)
    if (std::string p = find_toolkit_ptxas(); !p.empty()) binaries.insert(binaries.begin(), {p, tool_version(p)});
  for (const auto& [p, v] : binaries) {
    compilers_.push_back(Compiler{"ptxas " + (v.empty() ? std::string("(version unknown)") : v) + " (" + p + ")", p, v});
  }
  if (compilers_.empty()) throw std::invalid_argument("no compiler to check: --no-nvrtc, and no ptxas (none in the toolkit, no --ptxas)");
}

void Auditor::prepare(const std::vector<const codegen::Kernel*>& kernels) {
  constexpr std::size_t kMostPerProgram = 48;
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t per = std::max<std::size_t>(1, std::min(kMostPerProgram, (kernels.size() + cores - 1) / cores));
  per_program_ = per;
  std::vector<int> levels = settings_.nvrtc ? settings_.levels : std::vector<int>{};
  // The PTX other ptxas binaries are given: NVRTC's alone, without its own ptxas's CUBIN.
  if (compilers_.size() > (settings_.nvrtc ? 1u : 0u)) levels.push_back(codegen::kPtxOnly);
  struct Job {
    std::vector<const codegen::Kernel*> kernels;
    int level;
  };
  std::vector<Job> jobs;
  for (int level : levels)
    for (std::size_t at = 0; at < kernels.size(); at += per)
      jobs.push_back(Job{{kernels.begin() + static_cast<std::ptrdiff_t>(at),
                          kernels.begin() + static_cast<std::ptrdiff_t>(std::min(kernels.size(), at + per))},
                         level});
  on_every_core(jobs.size(), [&](std::size_t j) {
    try {
      auto program = std::make_shared<const codegen::Program>(codegen::compile_program(jobs[j].kernels, settings_.arch, jobs[j].level));
      std::lock_guard<std::mutex> lock(mutex_);
      for (std::size_t m = 0; m < jobs[j].kernels.size(); ++m)
        programs_[{jobs[j].kernels[m]->name, jobs[j].level}] = {program, program->line_offsets[m]};
    } catch (const std::exception&) {
      // A kernel of the program does not compile: each compiles alone when audited, its error its own.
    }
  });
}

std::pair<std::shared_ptr<const codegen::Program>, int> Auditor::nvrtc(const codegen::Kernel& k, int level) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = programs_.find({k.name, level}); it != programs_.end()) return it->second;
  }
  return {std::make_shared<const codegen::Program>(codegen::compile_program({&k}, settings_.arch, level)), 0};
}

const std::vector<Function>& Auditor::disassembled(const std::string& cubin) {
  return listings_.get(cubin, [&] { return read_sass(disassemble(disassembler_, cubin, scratch_)); });
}

std::string Auditor::assembled(const Compiler& c, int level, const std::string& ptx, std::string& lowered_to) {
  const Assembled& a = cubins_.get(c.ptxas + '\0' + std::to_string(level) + '\0' + ptx, [&] {
    Assembled made;
    made.cubin = ptxas_compile(c.ptxas, ptx, settings_.arch, level, scratch_, &made.lowered_to);
    return made;
  });
  lowered_to = a.lowered_to;
  return a.cubin;
}

KernelAudit Auditor::audit(const codegen::Kernel& k, const Compiler& c, int level) {
  KernelAudit a;
  a.compiler = c;
  a.level = level;
  try {
    // NVRTC's own ptxas at this level; another ptxas is given NVRTC's PTX (the same at every level).
    const auto [program, offset] = nvrtc(k, c.ptxas.empty() ? level : codegen::kPtxOnly);
    a.ptx_text = program->compiled.ptx;
    a.line_offset = offset;
    a.cubin = c.ptxas.empty() ? program->compiled.cubin : assembled(c, level, program->compiled.ptx, a.lowered_to);
    const std::vector<Function>& sass = disassembled(a.cubin);
    a.check = check_machine_code(k, sass, a.line_offset);
    a.ptx = read_ptx(a.ptx_text);
    if (!a.check.intact()) a.sass = function_text(sass, k.name);
    if (!a.check.function_found) a.error = "the disassembly has no function " + k.name;
  } catch (const codegen::CompileError& e) {
    a.error = std::string(e.what()) + (e.log().empty() ? "" : ": " + e.log());
  } catch (const std::exception& e) {
    a.error = e.what();
  }
  return a;
}

MachineCheck check_compiled(const codegen::Kernel& k, const codegen::Compiled& compiled, std::string& why_unchecked) {
  const std::string nvdisasm = find_disassembler("", why_unchecked);
  if (nvdisasm.empty()) return {};
  try {
    const ScratchDir dir("toolchain");
    MachineCheck c = check_machine_code(k, read_sass(disassemble(nvdisasm, compiled.cubin, dir)), compiled.line_offset);
    if (!c.function_found) why_unchecked = "the disassembly has no function " + k.name;
    return c;
  } catch (const std::exception& e) {
    why_unchecked = e.what();
    return {};
  }
}

std::string finding_text(const KernelAudit& a, const Finding& f, const std::string& indent) {
  std::string s = indent + name_of(f.problem) + ": thread T" + std::to_string(f.site.thread) + ", operation " +
                  std::to_string(f.site.index + 1) + " `" + f.site.text + "`: " + f.detail + "\n";
  for (const PtxInstruction& p : ptx_of(f.site, a.ptx, a.line_offset))
    s += indent + "  PTX line " + std::to_string(p.ptx_line) + ": " + p.text + "\n";
  s += indent + "  machine code around it (source line: instruction):\n";
  for (const std::string& line : f.context) s += indent + "    " + line + "\n";
  return s;
}

void on_every_core(std::size_t count, const std::function<void(std::size_t)>& each) {
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  const std::size_t workers = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), count);
  for (std::size_t w = 0; w < workers; ++w)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < count;) each(i);
    });
  for (std::thread& t : pool) t.join();
}

std::string function_text(const std::vector<Function>& sass, const std::string& name) {
  std::string out;
  for (const Function& f : sass) {
    if (f.name != name) continue;
    int line = -1;
    for (const Instruction& i : f.code) {
      if (i.line != line) {
        out += "        // line " + std::to_string(i.line) + (i.file.empty() ? "" : " of " + i.file) + "\n";
        line = i.line;
      }
      out += "        " + i.text() + "\n";
    }
  }
  return out;
}

}  // namespace vmmcheck::toolchain
