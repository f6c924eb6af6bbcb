// No leaks: the whole shipped suite, run twice through run::Suite (isolated cases in child processes
// included), must leave the device's free memory and this process's open file descriptors where the
// first pass left them. The first pass is the warm-up: module loading and driver caches settle there.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "common/error.hpp"
#include "model/loader.hpp"
#include "run/execution/suite.hpp"

namespace {

using namespace vmmcheck;

std::size_t open_fds() {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) (void)entry, ++n;
  return n;
}

std::size_t free_device_memory() {
  std::size_t free = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

// Device memory of exited children is returned by the driver soon after they exit; wait until the
// figure is steady for a moment (or equals the target) before reading it.
std::size_t settled_free_memory(std::size_t target) {
  std::size_t last = free_device_memory();
  for (int i = 0; i < 40 && last != target; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    last = free_device_memory();
  }
  return last;
}

// One pass over every case: a fresh suite (its executor and session), destroyed at the end.
std::size_t run_suite(const model::CaseTable& table) {
  setenv("VMMCHECK_PROGRAM", VMMCHECK_BINARY, 0);  // the ipc.* cases' second process (an ipc child)
  run::RunSettings o;
  o.program = VMMCHECK_BINARY;
  o.cases_paths = {model::default_cases_path().string()};
  o.cases_path_text = o.cases_paths.front();
  o.power = false;
  run::Suite suite(std::move(o), table.cases);
  // Every case must run to a verdict. What the verdict is (a driver finding, a model Warning) or a
  // feature this driver lacks (NotSupported) is not this test's business; a harness failure is.
  std::size_t ran = 0;
  for (const model::Case& c : table.cases) {
    const run::CaseResult& r = suite.run(c).result;
    const bool clean = r.status != run::Status::Crash && r.status != run::Status::Error && r.status != run::Status::Timeout;
    ran += clean;
    EXPECT_TRUE(clean) << c.name << ": " << run::to_string(r.status) << ": " << r.reason;
  }
  return ran;
}

TEST(NoLeaks, DeviceMemoryAndFileDescriptorsComeBack) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) GTEST_SKIP() << "no CUDA GPU here";
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaFree(nullptr));
  const model::CaseTable table = model::load_cases(model::default_cases_path());

  ASSERT_EQ(run_suite(table), table.cases.size());  // warm-up
  const std::size_t fds = open_fds();
  const std::size_t memory = settled_free_memory(0);
  ASSERT_EQ(run_suite(table), table.cases.size());
  const std::size_t fds_after = open_fds();
  const std::size_t memory_after = settled_free_memory(memory);

  std::cout << table.cases.size() << " cases; free device memory " << memory << " -> " << memory_after
            << " bytes; open fds " << fds << " -> " << fds_after << "\n";
  EXPECT_EQ(memory_after, memory) << "device memory not returned: "
                                  << static_cast<long long>(memory) - static_cast<long long>(memory_after) << " bytes";
  EXPECT_EQ(fds_after, fds) << "file descriptors left open";
}

}  // namespace
