// The VMM owners against a fake driver: a failure at any step of building an alias set releases exactly
// what was built (no leak, no double release), and a finished set releases in the guide's order.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::vmm {
namespace {

constexpr std::size_t kGranularity = 2u << 20;

struct FakeDriver {
  int fail_at = -1;  // the n-th acquiring call (reserve, create, map, set-access) fails
  int acquiring_calls = 0;
  std::vector<std::string> log;
  std::map<CUdeviceptr, int> reserved;           // base -> frees outstanding
  std::map<CUmemGenericAllocationHandle, int> handles;
  std::map<CUdeviceptr, int> mapped;
  CUdeviceptr next_va = 0x100000000ull;
  CUmemGenericAllocationHandle next_handle = 1;

  bool fail_now() { return ++acquiring_calls == fail_at; }
};

FakeDriver* g_fake = nullptr;

CUresult granularity(size_t* g, const CUmemAllocationProp*, CUmemAllocationGranularity_flags) {
  *g = kGranularity;
  return CUDA_SUCCESS;
}
CUresult reserve(CUdeviceptr* p, size_t size, size_t, CUdeviceptr, unsigned long long) {
  if (g_fake->fail_now()) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = g_fake->next_va;
  g_fake->next_va += size + kGranularity;
  g_fake->reserved[*p] += 1;
  g_fake->log.push_back("reserve");
  return CUDA_SUCCESS;
}
CUresult address_free(CUdeviceptr p, size_t) {
  g_fake->reserved[p] -= 1;
  g_fake->log.push_back("free");
  return CUDA_SUCCESS;
}
CUresult create(CUmemGenericAllocationHandle* h, size_t, const CUmemAllocationProp*, unsigned long long) {
  if (g_fake->fail_now()) return CUDA_ERROR_OUT_OF_MEMORY;
  *h = g_fake->next_handle++;
  g_fake->handles[*h] += 1;
  g_fake->log.push_back("create");
  return CUDA_SUCCESS;
}
CUresult release(CUmemGenericAllocationHandle h) {
  g_fake->handles[h] -= 1;
  g_fake->log.push_back("release");
  return CUDA_SUCCESS;
}
CUresult map(CUdeviceptr p, size_t, size_t offset, CUmemGenericAllocationHandle, unsigned long long) {
  if (offset != 0) return CUDA_ERROR_NOT_SUPPORTED;
  if (g_fake->fail_now()) return CUDA_ERROR_INVALID_VALUE;
  g_fake->mapped[p] += 1;
  g_fake->log.push_back("map");
  return CUDA_SUCCESS;
}
CUresult unmap(CUdeviceptr p, size_t) {
  g_fake->mapped[p] -= 1;
  g_fake->log.push_back("unmap");
  return CUDA_SUCCESS;
}
CUresult set_access(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t) {
  if (g_fake->fail_now()) return CUDA_ERROR_INVALID_DEVICE;
  g_fake->log.push_back("access");
  return CUDA_SUCCESS;
}
CUresult error_name(CUresult r, const char** name) {
  *name = r == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}

class VmmRollback : public ::testing::Test {
 protected:
  void SetUp() override {
    api_.cuMemGetAllocationGranularity = granularity;
    api_.cuMemAddressReserve = reserve;
    api_.cuMemAddressFree = address_free;
    api_.cuMemCreate = create;
    api_.cuMemRelease = release;
    api_.cuMemMap = map;
    api_.cuMemUnmap = unmap;
    api_.cuMemSetAccess = set_access;
    api_.cuGetErrorName = error_name;
    g_fake = &fake_;
    set_driver_for_testing(&api_);
  }
  void TearDown() override {
    set_driver_for_testing(nullptr);
    g_fake = nullptr;
  }
  void expect_nothing_held() {
    for (const auto& [va, n] : fake_.reserved) EXPECT_EQ(n, 0) << "address range " << va;
    for (const auto& [h, n] : fake_.handles) EXPECT_EQ(n, 0) << "handle " << h;
    for (const auto& [va, n] : fake_.mapped) EXPECT_EQ(n, 0) << "mapping " << va;
  }
  DriverApi api_;
  FakeDriver fake_;
};

const std::vector<ViewSpec> kViews = {{0}, {0}, {kGranularity}};

TEST_F(VmmRollback, FinishedSetReleasesEverythingOnceUnmappingFirst) {
  {
    AliasSet set(0, 3 * kGranularity, kViews);
    EXPECT_EQ(set.view_count(), 3u);
    EXPECT_NE(set.address_of(0, 64), set.address_of(1, 64));
    EXPECT_EQ(set.view(2).range.base() + kGranularity, set.view(2).address());
  }
  expect_nothing_held();
  // The physical allocation goes last: every unmap comes before the release.
  const auto release = std::find(fake_.log.begin(), fake_.log.end(), "release");
  ASSERT_NE(release, fake_.log.end());
  EXPECT_EQ(std::count(release, fake_.log.end(), "unmap"), 0);
  EXPECT_EQ(std::count(fake_.log.begin(), fake_.log.end(), "unmap"), 3);
}

TEST_F(VmmRollback, FailureAtEveryStepLeaksNothingAndReleasesNothingTwice) {
  const int steps = 1 + 3 * 3;  // create, then reserve + map + set-access per view
  for (int k = 1; k <= steps; ++k) {
    fake_ = FakeDriver{};
    fake_.fail_at = k;
    try {
      AliasSet set(0, 3 * kGranularity, kViews);
      ADD_FAILURE() << "step " << k << " did not fail";
    } catch (const CudaError& e) {
      EXPECT_NE(std::string(e.what()).find("from `driver()."), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("owners.cpp:"), std::string::npos) << e.what();
    }
    expect_nothing_held();
  }
}

TEST_F(VmmRollback, MovedFromOwnersReleaseNothing) {
  PhysicalAllocation a(0, kGranularity);
  PhysicalAllocation b(std::move(a));
  PhysicalAllocation c;
  c = std::move(b);
  EXPECT_EQ(a.handle(), 0u);
  EXPECT_EQ(b.handle(), 0u);
  EXPECT_NE(c.handle(), 0u);
  c = PhysicalAllocation{};
  expect_nothing_held();
  EXPECT_EQ(std::count(fake_.log.begin(), fake_.log.end(), "release"), 1);
}

TEST_F(VmmRollback, ErrorsCarryTheDriverErrorName) {
  fake_.fail_at = 1;
  try {
    PhysicalAllocation a(0, kGranularity);
    FAIL();
  } catch (const CudaError& e) {
    EXPECT_EQ(e.error_name(), "CUDA_ERROR_OUT_OF_MEMORY");
    EXPECT_EQ(e.code(), CUDA_ERROR_OUT_OF_MEMORY);
  }
}

}  // namespace
}  // namespace vmmcheck::vmm
