#include "toolchain/repro.hpp"

#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace vmmcheck::toolchain {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(' ');
  return a == std::string::npos ? std::string() : s.substr(a);
}

std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
  return out;
}

}  // namespace

codegen::Kernel reduced_kernel(const codegen::Kernel& k, unsigned thread) {
  const std::vector<std::string> source = lines_of(k.source);
  std::vector<const codegen::Site*> sites;
  for (const codegen::Site& s : k.sites)
    if (s.thread == thread) sites.push_back(&s);
  codegen::Kernel r;
  r.name = "vmmcheck_reduced_T" + std::to_string(thread) + "_" + k.name.substr(k.name.size() > 16 ? k.name.size() - 16 : 0);
  std::vector<std::string> statements;
  std::set<int> addresses, registers;
  std::set<std::string> unread;
  static const std::regex address(R"re(\ba(\d+)\b)re"), reg(R"re(\bv(\d+)\b)re"), scratch(R"re(\bw\d+\b)re");
  for (const codegen::Site* s : sites) {
    if (s->line == 0 || s->line > source.size()) return {};
    const std::string& text = source[s->line - 1];
    if (text.find("p.texture") != std::string::npos || text.find("p.surface") != std::string::npos) return {};
    statements.push_back(trimmed(text));
    for (std::sregex_iterator it(text.begin(), text.end(), address), end; it != end; ++it) addresses.insert(std::stoi((*it)[1]));
    for (std::sregex_iterator it(text.begin(), text.end(), reg), end; it != end; ++it) registers.insert(std::stoi((*it)[1]));
    for (std::sregex_iterator it(text.begin(), text.end(), scratch), end; it != end; ++it) unread.insert(it->str());
  }
  std::ostringstream o;
  o << "// Reduced by vmmcheck toolchain from " << k.name << ": thread T" << thread
    << "'s operations only, their asm statements as generated,\n// on plain pointers (each a<N> one word of address N), its registers written to out[].\n";
  o << "extern \"C\" __global__ void " << r.name << "(";
  bool first = true;
  for (int a : addresses) {
    o << (first ? "" : ", ") << "unsigned int* a" << a;
    first = false;
  }
  o << (first ? "" : ", ") << "unsigned int* out) {\n";
  for (int v : registers) o << "  unsigned int v" << v << " = 0u;\n";
  for (const std::string& u : unread) o << "  unsigned int " << u << ";\n";
  std::size_t line = 1;
  for (const char c : o.str()) line += c == '\n';
  for (std::size_t i = 0; i < sites.size(); ++i) {
    o << "  // " << sites[i]->text << "\n";
    ++line;
    codegen::Site s = *sites[i];
    s.line = static_cast<unsigned>(line);
    r.sites.push_back(s);
    o << "  " << statements[i] << "\n";
    ++line;
  }
  for (int v : registers) o << "  out[" << v << "] = v" << v << ";\n";
  o << "}\n";
  r.source = o.str();
  r.function_at = 0;
  return r;
}

fs::path write_repro(const fs::path& dir, const codegen::Kernel& k, const std::vector<std::string>& rows, const KernelAudit& audit,
                     Auditor& auditor) {
  const fs::path here = dir / slug(k.name + "-" + (audit.compiler.ptxas.empty() ? "nvrtc" : "ptxas") + "-" + audit.compiler.version + "-O" +
                                   std::to_string(audit.level));
  const int arch = auditor.settings().arch;
  write(here / "kernel.cu", k.source);
  for (const codegen::Header& h : codegen::kernel_headers()) write(here / h.name, h.text);
  write(here / "kernel.ptx", audit.lowered_to.empty() ? audit.ptx_text : with_ptx_version(audit.ptx_text, audit.lowered_to));
  write(here / "kernel.sass", audit.sass);

  std::ostringstream finding;
  finding << "vmmcheck toolchain finding: " << audit.compiler.name << " -O" << audit.level << ", sm_" << arch << "\n";
  finding << "kernel " << k.name << ", of the litmus rows:";
  for (const std::string& r : rows) finding << " " << r;
  finding << "\n";
  if (!audit.lowered_to.empty()) finding << "(the PTX's .version lowered to " << audit.lowered_to << " for this ptxas)\n";
  if (audit.line_offset != 0)
    finding << "(compiled with other kernels in one program: source lines below are kernel.cu's; the CUBIN's line table is "
            << audit.line_offset << " lines further down)\n";
  finding << "\n";
  std::set<unsigned> threads;
  for (const Finding& f : audit.check.findings) {
    finding << finding_text(audit, f, "") << "\n";
    threads.insert(f.site.thread);
  }

  std::ostringstream commands;
  const std::string ptxas = audit.compiler.ptxas.empty() ? "ptxas" : audit.compiler.ptxas;
  commands << "#!/bin/sh\n# Reproduces " << audit.compiler.name << " -O" << audit.level << " on " << k.name
           << " (finding.txt says what broke).\nset -e\ncd \"$(dirname \"$0\")\"\n\n"
           << "# The PTX vmmcheck checked (NVRTC's; nvcc -std=c++17 -arch=sm_" << arch
           << " -lineinfo -ptx kernel.cu gives the same instructions),\n# through ptxas at the level that broke it, and its "
              "machine code with the source line of each instruction:\n"
           << ptxas << " -arch=sm_" << arch << " -O" << audit.level << " -lineinfo kernel.ptx -o kernel.cubin\n"
           << "nvdisasm --print-line-info --print-code kernel.cubin > kernel.full.sass   # kernel.sass: the kernel's function, as vmmcheck read it\n";
  for (const Finding& f : audit.check.findings)
    commands << "# `" << f.site.text << "` is kernel.cu line " << f.site.line << " (" << name_of(f.problem) << "):\ngrep -n -A4 'line "
             << f.site.line + static_cast<unsigned>(audit.line_offset) << "$' kernel.full.sass || echo 'no instruction from line "
             << f.site.line << "'\n";

  std::ostringstream reduced_note;
  for (unsigned t : threads) {
    codegen::Kernel r = reduced_kernel(k, t);
    if (r.source.empty()) {
      reduced_note << "thread T" << t << ": no reduced kernel (it reads a texture or a surface)\n";
      continue;
    }
    const std::string file = "reduced_T" + std::to_string(t) + ".cu";
    write(here / file, r.source);
    const KernelAudit again = auditor.audit(r, audit.compiler, audit.level);
    reduced_note << file << ": ";
    if (!again.error.empty()) reduced_note << "could not be checked: " << again.error << "\n";
    else if (again.check.intact()) reduced_note << "its code is intact: the finding needs the whole kernel (kernel.cu is the reproducer)\n";
    else {
      reduced_note << "breaks the same way:\n";
      for (const Finding& f : again.check.findings) reduced_note << finding_text(again, f, "  ");
    }
    commands << "\n# The reduced kernel of thread T" << t << ":\nnvcc -std=c++17 -arch=sm_" << arch << " -lineinfo -cubin -Xptxas -O"
             << audit.level << " " << file << " -o reduced_T" << t << ".cubin\nnvdisasm --print-line-info --print-code reduced_T" << t
             << ".cubin\n";
  }
  finding << "Reduced kernels:\n" << reduced_note.str();
  write(here / "finding.txt", finding.str());
  write(here / "commands.sh", commands.str());
  fs::permissions(here / "commands.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add);
  return here;
}

}  // namespace vmmcheck::toolchain
