// The gated multicast module (harness/vmm/multicast.cpp) against a fake multicast driver: a closed gate
// makes no multicast call at all; an open one makes exactly the documented calls in order; a failure at
// any step undoes exactly what was done; the environment statuses are NotSupported, never a failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <cstdlib>

#include "cli/app.hpp"
#include "cli_driver.hpp"
#include "common/error.hpp"
#include "vmm/multicast.hpp"

namespace vmmcheck::vmm {
namespace {

struct FakeMulticast {
  std::vector<std::string> calls;
  int fail_at = -1;                   // the n-th acquiring call (granularity, create, add, bind) fails ...
  CUresult failure = CUDA_ERROR_INVALID_VALUE;  // ... with this status
  int acquiring = 0;
  bool fail_now() { return ++acquiring == fail_at; }
};
FakeMulticast* g = nullptr;

CUresult granularity(size_t* out, const CUmulticastObjectProp*, CUmulticastGranularity_flags) {
  g->calls.push_back("granularity");
  if (g->fail_now()) return g->failure;
  *out = 512u << 20;
  return CUDA_SUCCESS;
}
CUresult create(CUmemGenericAllocationHandle* h, const CUmulticastObjectProp* prop) {
  g->calls.push_back("create " + std::to_string(prop->numDevices) + " " + std::to_string(prop->size >> 20) + "MiB");
  if (g->fail_now()) return g->failure;
  *h = 77;
  return CUDA_SUCCESS;
}
CUresult add_device(CUmemGenericAllocationHandle, CUdevice dev) {
  g->calls.push_back("add " + std::to_string(dev));
  return g->fail_now() ? g->failure : CUDA_SUCCESS;
}
CUresult bind_mem(CUmemGenericAllocationHandle, size_t, CUmemGenericAllocationHandle mem, size_t, size_t, unsigned long long) {
  g->calls.push_back("bind " + std::to_string(mem));
  return g->fail_now() ? g->failure : CUDA_SUCCESS;
}
CUresult unbind(CUmemGenericAllocationHandle, CUdevice dev, size_t, size_t) {
  g->calls.push_back("unbind " + std::to_string(dev));
  return CUDA_SUCCESS;
}
CUresult release(CUmemGenericAllocationHandle h) {
  g->calls.push_back("release " + std::to_string(h));
  return CUDA_SUCCESS;
}
CUresult export_handle(void* fd, CUmemGenericAllocationHandle h, CUmemAllocationHandleType, unsigned long long) {
  g->calls.push_back("export " + std::to_string(h));
  *static_cast<int*>(fd) = 5;
  return CUDA_SUCCESS;
}
CUresult import_handle(CUmemGenericAllocationHandle* h, void* fd, CUmemAllocationHandleType) {
  g->calls.push_back("import fd " + std::to_string(reinterpret_cast<std::intptr_t>(fd)));
  *h = 78;  // the importing process's own handle on the object
  return CUDA_SUCCESS;
}

class MulticastTeamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g = &fake;
    api = {granularity, create, add_device, bind_mem, unbind, release, export_handle, import_handle};
    set_multicast_driver_for_testing(&api);
  }
  void TearDown() override {
    set_multicast_driver_for_testing(nullptr);
    g = nullptr;
  }
  FakeMulticast fake;
  MulticastApi api;
  const std::vector<TeamMember> team{{0, 10}, {1, 11}};
  const device::GateDecision open{true, "test"};
};

TEST_F(MulticastTeamTest, AClosedGateMakesNoMulticastCall) {
  for (const device::GateDecision& closed :
       {device::multicast_gate(true, false, nullptr), device::multicast_gate(true, true, "0"),
        device::multicast_gate(false, true, nullptr)}) {
    ASSERT_FALSE(closed.allowed);
    try {
      MulticastTeam t(closed, team, 1u << 20);
      ADD_FAILURE() << "a closed gate let a team be built";
    } catch (const NotSupportedError& e) {
      EXPECT_NE(std::string(e.what()).find(closed.reason), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(fake.calls.empty());
}

// A whole run of the multicast family (and a case beside it) without the opt-in: not one multicast call.
// Without a GPU every case is skipped before its runner; on a GPU the runner meets the closed gate.
TEST_F(MulticastTeamTest, AWholeRunWithTheGateClosedMakesNoMulticastCall) {
  unsetenv("VMMCHECK_ALLOW_MULTICAST");
  const testing::Outcome o = testing::cli({"run", "--filter", "multicast.*,lifecycle.seam"});
  EXPECT_TRUE(o.code == cli::kExitOk || o.code == cli::kExitNothingRunnable) << o.out << o.err;
  EXPECT_TRUE(fake.calls.empty()) << fake.calls.size() << " multicast calls";
  EXPECT_EQ(o.out.find("PASS    multicast."), std::string::npos) << o.out;
}

TEST_F(MulticastTeamTest, TheDocumentedOrderAndItsReverse) {
  {
    MulticastTeam t(open, team, 1u << 20);
    EXPECT_EQ(t.size(), 512u << 20);  // padded to the granularity
    EXPECT_EQ(t.handle(), 77u);
  }
  const std::vector<std::string> expected = {"granularity", "create 2 512MiB", "add 0", "add 1",  // every device first
                                             "bind 10",     "bind 11",         "unbind 1", "unbind 0", "release 77"};
  EXPECT_EQ(fake.calls, expected);
}

TEST_F(MulticastTeamTest, AFailureAtEachStepUndoesExactlyWhatWasDone) {
  // Steps: 1 granularity, 2 create, 3-4 add, 5-6 bind.
  const std::vector<std::vector<std::string>> after = {
      {"granularity"},
      {"granularity", "create 2 512MiB"},
      {"granularity", "create 2 512MiB", "add 0", "release 77"},
      {"granularity", "create 2 512MiB", "add 0", "add 1", "release 77"},
      {"granularity", "create 2 512MiB", "add 0", "add 1", "bind 10", "release 77"},
      {"granularity", "create 2 512MiB", "add 0", "add 1", "bind 10", "bind 11", "unbind 0", "release 77"},
  };
  for (int step = 1; step <= 6; ++step) {
    SCOPED_TRACE("failure at step " + std::to_string(step));
    fake = FakeMulticast{};
    fake.fail_at = step;
    EXPECT_THROW(MulticastTeam(open, team, 1u << 20), CudaError);
    EXPECT_EQ(fake.calls, after[static_cast<std::size_t>(step - 1)]);
  }
}

TEST_F(MulticastTeamTest, EnvironmentStatusesAreNotSupportedWithTheStatusNamed) {
  for (CUresult status : {CUDA_ERROR_ILLEGAL_STATE, CUDA_ERROR_SYSTEM_NOT_READY, CUDA_ERROR_OUT_OF_MEMORY}) {
    EXPECT_TRUE(environment_not_ready(status));
    fake = FakeMulticast{};
    fake.fail_at = 5;  // the first bind
    fake.failure = status;
    try {
      MulticastTeam t(open, team, 1u << 20);
      ADD_FAILURE() << "no failure";
    } catch (const NotSupportedError& e) {
      EXPECT_NE(std::string(e.what()).find("multicast environment not ready: cuMulticastBindMem returned"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(fake.calls.back(), "release 77");  // undone all the same
  }
  EXPECT_FALSE(environment_not_ready(CUDA_ERROR_INVALID_VALUE));
}

// A team shared between two processes (here two owners in one): the creator creates and adds its device,
// exports; the other imports, adds its device, binds; the creator binds last. Each undoes its own part.
TEST_F(MulticastTeamTest, ASharedTeamFollowsTheDocumentedOrderAcrossProcesses) {
  {
    MulticastTeam creator(open, 2, {0, 10}, 1u << 20, MulticastTeam::Shared{});
    const int fd = creator.export_fd();
    {
      MulticastTeam joiner = MulticastTeam::join(open, fd, creator.size(), {1, 11});
      creator.bind_own();
    }
  }
  const std::vector<std::string> expected = {"granularity", "create 2 512MiB", "add 0",  "export 77", "import fd 5",
                                             "add 1",       "bind 11",         "bind 10", "unbind 1", "release 78",
                                             "unbind 0",    "release 77"};
  EXPECT_EQ(fake.calls, expected);
}

TEST_F(MulticastTeamTest, ASharedTeamAsksTheGateFirstOnBothSides) {
  const device::GateDecision closed = device::multicast_gate(true, true, "0");
  EXPECT_THROW(MulticastTeam(closed, 2, {0, 10}, 1u << 20, MulticastTeam::Shared{}), NotSupportedError);
  EXPECT_THROW(MulticastTeam::join(closed, 5, 512u << 20, {1, 11}), NotSupportedError);
  EXPECT_TRUE(fake.calls.empty());
}

TEST_F(MulticastTeamTest, AJoinThatFailsUndoesItsOwnPartOnly) {
  fake.fail_at = 2;  // the joiner's bind (its add was the first acquiring call)
  EXPECT_THROW(MulticastTeam::join(open, 5, 512u << 20, {1, 11}), CudaError);
  EXPECT_EQ(fake.calls, (std::vector<std::string>{"import fd 5", "add 1", "bind 11", "release 78"}));
}

}  // namespace
}  // namespace vmmcheck::vmm
