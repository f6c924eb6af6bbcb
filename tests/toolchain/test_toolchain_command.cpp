// `vmmcheck toolchain` at its edges, on the CPU: what it says when it cannot check (no disassembler: 77),
// bad input (2), and a real check of one row of the read-once alias_mp shape at -O0 (intact, exit 0) and at -O3 (the reload
// merged across the acquire, exit 1, with the PTX line, the machine code and a reproducer) where a
// disassembler is installed.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "../unit/cli_driver.hpp"
#include "toolchain/tools.hpp"

namespace vmmcheck::testing {
namespace {

// The read-once shape ptxas breaks (the shipped alias_mp rows spin on their flag, and ptxas keeps them).
const std::string kMp = std::string(VMMCHECK_SOURCE_DIR) + "/tests/toolchain/data/alias_mp_read_once.test";

bool have_disassembler() {
  std::string why;
  return !toolchain::find_disassembler("", why).empty();
}

TEST(ToolchainCommand, NoDisassemblerIsExit77) {
  // An existing file that is not a program stands for "nothing here can disassemble".
  const std::filesystem::path fake = std::filesystem::temp_directory_path() / "vmmcheck-not-nvdisasm";
  std::ofstream(fake) << "not a program\n";
  const Outcome o = cli({"toolchain", kMp, "--filter", "alias_mp_read_once.1.*", "--disassembler", fake.string()});
  EXPECT_EQ(o.code, 77) << o.out << o.err;
  EXPECT_NE(o.err.find("cannot check here"), std::string::npos) << o.err;
}

TEST(ToolchainCommand, NeverWritesOverAnotherKindOfDocument) {
  const auto results = std::filesystem::temp_directory_path() / "vmmcheck-toolchain-results.json";
  std::filesystem::copy_file(std::string(VMMCHECK_SOURCE_DIR) + "/ci/results/nvidia-h200_driver-580.159.04.json", results,
                             std::filesystem::copy_options::overwrite_existing);
  const auto size = std::filesystem::file_size(results);
  const Outcome o = cli({"toolchain", kMp, "--filter", "alias_mp_read_once.1.*", "--json", results.string()});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("vmmcheck results"), std::string::npos) << o.err;
  EXPECT_EQ(std::filesystem::file_size(results), size);
  std::filesystem::remove(results);
}

// What the user names is the user's input: a --ptxas that is no ptxas -- a text file, a program that never
// answers -- and an SM NVRTC does not compile for are exit 2 with one line, and nothing hangs.
TEST(ToolchainCommand, AToolThatIsNoPtxasOrAnArchNvrtcLacksIsAUsageError) {
  if (!have_disassembler()) GTEST_SKIP() << "no nvdisasm here (ci/setup-deps.sh installs one)";
  const std::filesystem::path text = std::filesystem::temp_directory_path() / "vmmcheck-not-ptxas.txt";
  std::ofstream(text) << "not a program\n";
  Outcome o = cli({"toolchain", kMp, "--filter", "alias_mp_read_once.1.*", "--ptxas", text.string()});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("--ptxas " + text.string() + ": not a ptxas that runs"), std::string::npos) << o.err;

  const std::filesystem::path hangs = std::filesystem::temp_directory_path() / "vmmcheck-ptxas-that-hangs";
  std::ofstream(hangs) << "#!/bin/sh\nexec sleep 600\n";
  std::filesystem::permissions(hangs, std::filesystem::perms::owner_all);
  const auto started = std::chrono::steady_clock::now();
  o = cli({"toolchain", kMp, "--filter", "alias_mp_read_once.1.*", "--ptxas", hangs.string()});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("no answer to --version in 10 s"), std::string::npos) << o.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));

  o = cli({"toolchain", kMp, "--filter", "alias_mp_read_once.1.*", "--arch", "52"});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("--arch 52: NVRTC"), std::string::npos) << o.err;
}

TEST(ToolchainCommand, NoRowIsAUsageError) {
  const Outcome o = cli({"toolchain", kMp, "--filter", "no.such.row"});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("no generated kernel"), std::string::npos) << o.err;
}

TEST(ToolchainCommand, UnoptimisedCodeIsIntactAndOptimisedCodeMergesTheReload) {
  if (!have_disassembler()) GTEST_SKIP() << "no nvdisasm here (ci/setup-deps.sh installs one)";
  const Outcome o0 = cli({"toolchain", kMp, "--filter", "alias_mp_read_once.1.*", "--no-toolkit-ptxas", "-O", "0"});
  EXPECT_EQ(o0.code, 0) << o0.out << o0.err;
  EXPECT_NE(o0.out.find("-O0: 1 kernels intact"), std::string::npos) << o0.out;

  const std::filesystem::path repro = std::filesystem::temp_directory_path() / "vmmcheck-toolchain-repro-test";
  std::filesystem::remove_all(repro);
  const Outcome o3 = cli({"toolchain", kMp, "--filter", "alias_mp_read_once.1.*", "--no-toolkit-ptxas", "--repro", repro.string()});
  EXPECT_EQ(o3.code, 1) << o3.out << o3.err;
  EXPECT_NE(o3.out.find("merged: thread T1, operation 3 `ld r2, [x]`"), std::string::npos) << o3.out;
  EXPECT_NE(o3.out.find("PTX line "), std::string::npos) << o3.out;
  EXPECT_NE(o3.out.find("LD.E.STRONG.GPU"), std::string::npos) << o3.out;
  // The reproducer: the reduced kernel of the reader breaks the same way.
  std::size_t folders = 0;
  for (const auto& d : std::filesystem::directory_iterator(repro)) {
    ++folders;
    std::ifstream f(d.path() / "finding.txt");
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("reduced_T1.cu: breaks the same way"), std::string::npos) << text;
    EXPECT_TRUE(std::filesystem::exists(d.path() / "kernel.ptx"));
    EXPECT_TRUE(std::filesystem::exists(d.path() / "commands.sh"));
  }
  EXPECT_EQ(folders, 1u);
  std::filesystem::remove_all(repro);
}

}  // namespace
}  // namespace vmmcheck::testing
