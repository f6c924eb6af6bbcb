// Every shipped row's generated kernel names each memory operation and fence by the line of its one asm
// statement (codegen::Site): the line holds that statement and its PTX instruction, in the thread's
// program order -- what lets the machine-code check find each operation's code. And the reduced kernel
// of a reproducer keeps those statements, its sites on them.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "codegen/generator.hpp"
#include "litmus/folder.hpp"
#include "toolchain/repro.hpp"

namespace {

using namespace vmmcheck;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<codegen::Kernel> shipped_kernels() {
  std::vector<codegen::Kernel> out;
  for (const litmus::Row& row : litmus::rows_of(litmus::parse_paths({std::filesystem::path(VMMCHECK_SOURCE_DIR) / "cases" / "litmus"})))
    if (codegen::why_not_generated(row.test).empty()) out.push_back(codegen::generate(row.test));
  return out;
}

TEST(Sites, EachOperationOfEveryShippedKernelIsOnItsOwnAsmLine) {
  const std::vector<codegen::Kernel> kernels = shipped_kernels();
  ASSERT_GT(kernels.size(), 100u);
  for (const codegen::Kernel& k : kernels) {
    const std::vector<std::string> source = lines_of(k.source);
    std::size_t ops = 0;
    ASSERT_FALSE(k.sites.empty()) << k.name;
    for (std::size_t i = 0; i < k.sites.size(); ++i) {
      const codegen::Site& s = k.sites[i];
      ASSERT_GE(s.line, 1u);
      ASSERT_LE(s.line, source.size());
      const std::string& text = source[s.line - 1];
      EXPECT_NE(text.find("asm volatile("), std::string::npos) << k.name << " line " << s.line << ": " << text;
      EXPECT_NE(text.find(s.ptx), std::string::npos) << k.name << " line " << s.line << ": " << text << " vs " << s.ptx;
      if (i > 0 && k.sites[i - 1].thread == s.thread) {
        EXPECT_EQ(s.index, k.sites[i - 1].index + 1) << k.name;
        EXPECT_GT(s.line, k.sites[i - 1].line) << k.name;
      }
      ++ops;
    }
    // No other asm statement is an operation's: the rest of the kernel's asm is the stress's (a header),
    // the one of vmmcheck_warm, the warming read of the stress knob warm_loads ("... : "l"(word) ..."), and
    // the barriers an idle lane passes ("// idle lane").
    std::size_t asm_lines = 0;
    for (std::size_t n = 0; n < source.size(); ++n)
      asm_lines += source[n].find("asm volatile(") != std::string::npos && source[n].find("\"l\"(word)") == std::string::npos &&
                   source[n].find("// idle lane") == std::string::npos;
    EXPECT_EQ(asm_lines, ops) << k.name;
  }
}

TEST(Sites, AReducedKernelKeepsTheThreadsStatements) {
  for (const codegen::Kernel& k : shipped_kernels()) {
    if (k.name.find("alias_mp_1_") == std::string::npos) continue;
    const codegen::Kernel r = toolchain::reduced_kernel(k, 1);
    ASSERT_FALSE(r.source.empty());
    const std::vector<std::string> source = lines_of(r.source);
    ASSERT_EQ(r.sites.size(), 3u);
    for (const codegen::Site& s : r.sites) {
      ASSERT_LE(s.line, source.size());
      EXPECT_NE(source[s.line - 1].find("asm volatile(\"" + s.ptx), std::string::npos) << source[s.line - 1];
    }
    EXPECT_NE(r.source.find("extern \"C\" __global__ void " + r.name + "(unsigned int* a0, unsigned int* a3, unsigned int* out)"),
              std::string::npos)
        << r.source;
    return;
  }
  FAIL() << "no alias_mp.1 kernel";
}

}  // namespace
