#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "device/multicast_gate.hpp"
#include "device/probe.hpp"

namespace vmmcheck::device {
namespace {

TEST(MulticastGate, RefusesUnlessSupportedOptedInAndNotDisabled) {
  EXPECT_FALSE(multicast_gate(false, true, nullptr).allowed);
  EXPECT_FALSE(multicast_gate(true, false, nullptr).allowed);
  EXPECT_FALSE(multicast_gate(true, true, "0").allowed);
  EXPECT_NE(multicast_gate(true, true, "0").reason.find("NCCL_NVLS_ENABLE=0"), std::string::npos);
  EXPECT_TRUE(multicast_gate(true, true, nullptr).allowed);
  EXPECT_TRUE(multicast_gate(true, true, "1").allowed);
}

TEST(MulticastGate, AnySiteSwitchRefuses) {
  SiteSwitches nvshmem;
  nvshmem.nvshmem_disable_nvls = "1";
  EXPECT_FALSE(multicast_gate(true, true, nvshmem).allowed);
  EXPECT_NE(multicast_gate(true, true, nvshmem).reason.find("NVSHMEM_DISABLE_NVLS=1"), std::string::npos);
  SiteSwitches torch;
  torch.torch_symm_mem_disable_multicast = "1";
  EXPECT_FALSE(multicast_gate(true, true, torch).allowed);
  SiteSwitches off_values;  // values that do not switch it off
  off_values.nccl_nvls_enable = "1";
  off_values.nvshmem_disable_nvls = "0";
  off_values.torch_symm_mem_disable_multicast = "0";
  EXPECT_TRUE(multicast_gate(true, true, off_values).allowed);
  setenv("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1", 1);
  EXPECT_FALSE(multicast_gate_from_environment(true, true).allowed);
  unsetenv("TORCH_SYMM_MEM_DISABLE_MULTICAST");
}

TEST(MulticastGate, ReadsTheEnvironmentLikeTheTwoGpuMachine) {
  // The lent two-GPU machine reports multicast support and sets NCCL_NVLS_ENABLE=0: even opted in, refuse.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  setenv("VMMCHECK_ALLOW_MULTICAST", "1", 1);
  EXPECT_FALSE(multicast_gate_from_environment(true, true).allowed);
  unsetenv("NCCL_NVLS_ENABLE");
  EXPECT_TRUE(multicast_gate_from_environment(true, false).allowed);
  unsetenv("VMMCHECK_ALLOW_MULTICAST");
  EXPECT_FALSE(multicast_gate_from_environment(true, false).allowed);
}

TEST(Imex, ReadsProcDevicesAndChannelFiles) {
  const std::string proc = "Character devices:\n195 nvidia\n195 nvidiactl\n234 nvidia-caps-imex-channels\n509 nvidia-nvswitch\n";
  const auto dir = std::filesystem::temp_directory_path() / "vmmcheck-imex-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "channel0").put('x');
  std::ofstream(dir / "other").put('x');
  const ImexState s = read_imex_state(proc, dir.string());
  EXPECT_TRUE(s.proc_devices_entry);
  EXPECT_EQ(s.major, 234);
  EXPECT_EQ(s.channels, std::vector<std::string>{"channel0"});
  EXPECT_EQ(s.accessible_channels, std::vector<std::string>{"channel0"});
  const ImexState none = read_imex_state("195 nvidia\n", (dir / "missing").string());
  EXPECT_FALSE(none.proc_devices_entry);
  EXPECT_TRUE(none.channels.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vmmcheck::device
