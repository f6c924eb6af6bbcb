// `vmmcheck model` on its own (docs/design.md, "Layout"): this executable links the command's library
// and nothing of the run -- no kernels, no run layer, no NVRTC -- so a GPU dependency creeping into the
// command fails its link. It decides the shipped litmus files and writes their kernels' sources.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cli/model_cmd.hpp"

namespace {

namespace fs = std::filesystem;

TEST(ModelCommand, DecidesTheShippedFilesWithoutTheRunLayer) {
  vmmcheck::cli::Options o;
  o.command = vmmcheck::cli::Command::Model;
  o.litmus = {std::string(VMMCHECK_SOURCE_DIR) + "/cases/litmus"};
  const fs::path dir = fs::temp_directory_path() / ("vmmcheck-model-kernels-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  o.kernels_dir = dir.string();
  std::ostringstream out, err;
  EXPECT_EQ(vmmcheck::cli::cmd_model(o, out, err), 0) << out.str() << err.str();
  EXPECT_NE(out.str().find(" against"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(", 0 against"), std::string::npos) << out.str();
  // The generated sources and both headers they include.
  EXPECT_TRUE(fs::exists(dir / "litmus_abi.h"));
  EXPECT_TRUE(fs::exists(dir / "kernels" / "stress_ops.h"));
  std::size_t sources = 0;
  for (const auto& e : fs::directory_iterator(dir)) sources += e.path().extension() == ".cu";
  EXPECT_GT(sources, 100u);
  fs::remove_all(dir);
}

}  // namespace
