// The support stage (run/kit/support.hpp): from the case and a description of the machine alone --
// here, made up -- whether the case can run, and why not. No GPU: the description is data.
#include <gtest/gtest.h>

#include "model/loader.hpp"
#include "model/select.hpp"
#include "run/kit/support.hpp"

namespace vmmcheck::run {
namespace {

const model::CaseTable& shipped() {
  static const model::CaseTable t = model::load_cases(model::default_cases_path());
  return t;
}

std::string why(const std::string& name, const device::ProbeReport& m, int device = 0) {
  return why_not_here(model::find_case(shipped().cases, name), m, device);
}

// One H200-like device: VMM, POSIX descriptors, compression, no host NUMA node, the gate closed, no IMEX.
device::ProbeReport one_gpu() {
  device::ProbeReport m;
  device::DeviceCaps d;
  d.index = 0;
  d.cc_major = 9;
  d.vmm = d.posix_fd = d.compression = true;
  d.multicast_gate = {false, "NCCL_NVLS_ENABLE=0: this site has switched NVLink multicast off"};
  d.fabric_reason = "no IMEX channel";
  m.devices = {d};
  m.peer_access = {{false}};
  m.fd_transports = {{"scm_rights", "works"}, {"pidfd_getfd", "pidfd_getfd: Operation not permitted"}};
  return m;
}

TEST(Support, WhatEveryGpuCaseNeedsComesFirst) {
  device::ProbeReport m = one_gpu();
  EXPECT_EQ(why("alias.kernels.kernel.kernel.stream.alias", m), "");
  EXPECT_NE(why("alias.kernels.kernel.kernel.stream.alias", m, 1).find("no device 1 here"), std::string::npos);
  m.devices[0].vmm = false;
  EXPECT_NE(why("alias.kernels.kernel.kernel.stream.alias", m).find("does not support virtual memory management"), std::string::npos);
}

TEST(Support, EachPatternSaysWhatItNeeds) {
  device::ProbeReport m = one_gpu();
  EXPECT_NE(why("peer.kernels.event.same", m).find("needs two GPUs; this machine has 1"), std::string::npos);
  EXPECT_NE(why("multicast.st.fence.onekernel", m).find("multicast refused by the gate: NCCL_NVLS_ENABLE=0"), std::string::npos);
  EXPECT_EQ(why("fabric.handles.same_process", m), "no IMEX channel");
  EXPECT_EQ(why("ipc.kernels.event.first.holds.scm_rights", m), "");
  EXPECT_NE(why("ipc.kernels.host.first.holds.pidfd_getfd", m).find("cannot be moved with pidfd_getfd here: pidfd_getfd: Operation"),
            std::string::npos);
  EXPECT_EQ(why("alias.memory.kernels.compressible.event.alias", m), "");
  EXPECT_NE(why("alias.memory.kernels.host_numa.event.alias", m).find("does not map host NUMA memory"), std::string::npos);
  m.devices[0].host_numa_vmm = true;
  EXPECT_NE(why("alias.memory.kernels.host_numa.event.alias", m).find("no host NUMA node"), std::string::npos);
  m.devices[0].host_numa_id = 0;
  EXPECT_EQ(why("alias.memory.kernels.host_numa.event.alias", m), "");
  m.devices[0].cc_major = 8;
  EXPECT_NE(why("proxy.async.g2s.same.asyncfence", m).find("needs compute capability 9.0 or newer; this GPU is 8.0"),
            std::string::npos);
}

TEST(Support, TwoGpusMustReachEachOther) {
  device::ProbeReport m = one_gpu();
  m.devices.push_back(m.devices[0]);
  m.devices[1].index = 1;
  m.peer_access = {{false, true}, {false, false}};  // 0 reaches 1, 1 does not reach 0
  EXPECT_NE(why("peer.mp.alias.fence", m).find("can access each other"), std::string::npos);
  m.peer_access[1][0] = true;
  EXPECT_EQ(why("peer.mp.alias.fence", m), "");
  EXPECT_EQ(why("peer.access.granted", m, 1), "");
  // A two-process multicast team asks the gate first, then for the second GPU.
  m.devices[0].multicast_gate = {true, "opted in"};
  EXPECT_EQ(why("multicast.processes.st.event", m), "");
  m.peer_access = {{false, false}, {false, false}};
  EXPECT_NE(why("multicast.processes.st.event", m).find("can access each other"), std::string::npos);
  EXPECT_EQ(why("multicast.st.fence.onekernel", m), "");  // one process: this device's gate is enough
}

TEST(Support, EveryCaseOfTheTablesIsAnswered) {
  const device::ProbeReport m = one_gpu();
  std::size_t runnable = 0;
  for (const model::Case& c : shipped().cases) runnable += why_not_here(c, m, 0).empty();
  // One GPU, the gate closed, no IMEX channel, no host NUMA node, pidfd_getfd refused: what remains.
  EXPECT_GT(runnable, 260u);
  EXPECT_LT(runnable, shipped().cases.size());
}

}  // namespace
}  // namespace vmmcheck::run
