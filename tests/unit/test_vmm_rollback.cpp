// The VMM owners against a fake driver: a failure at any step of building an alias set releases exactly
// what was built (no leak, no double release), and a finished or a failed set releases in the guide's
// order: every unmap, then the release, then every free.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "vmm/alias_set.hpp"
#include "vmm/memory_kind.hpp"

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
  std::vector<CUdeviceptr> mapped_order, unmapped_order;
  int refuse_release = 0;  // the next n releases fail (and change nothing)
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
  if (g_fake->refuse_release > 0) {
    --g_fake->refuse_release;
    return CUDA_ERROR_INVALID_VALUE;
  }
  g_fake->handles[h] -= 1;
  g_fake->log.push_back("release");
  return CUDA_SUCCESS;
}
CUresult map(CUdeviceptr p, size_t, size_t offset, CUmemGenericAllocationHandle, unsigned long long) {
  if (offset != 0) return CUDA_ERROR_NOT_SUPPORTED;
  if (g_fake->fail_now()) return CUDA_ERROR_INVALID_VALUE;
  g_fake->mapped[p] += 1;
  g_fake->mapped_order.push_back(p);
  g_fake->log.push_back("map");
  return CUDA_SUCCESS;
}
CUresult unmap(CUdeviceptr p, size_t) {
  g_fake->mapped[p] -= 1;
  g_fake->unmapped_order.push_back(p);
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

// The calls a teardown made, in order: the part of the log after `from`.
std::vector<std::string> calls_after(const std::vector<std::string>& log, std::size_t from) {
  return {log.begin() + static_cast<long>(from), log.end()};
}

// True when the calls follow the guide's release order: every unmap, then the release, then every free.
bool in_release_order(const std::vector<std::string>& calls) {
  auto rank = [](const std::string& call) { return call == "unmap" ? 0 : call == "release" ? 1 : call == "free" ? 2 : 3; };
  for (std::size_t i = 1; i < calls.size(); ++i)
    if (rank(calls[i - 1]) > rank(calls[i])) return false;
  return true;
}

TEST_F(VmmRollback, FinishedSetReleasesEverythingOnceInTheGuidesOrder) {
  std::size_t built = 0;
  {
    AliasSet set(0, 3 * kGranularity, kViews);
    EXPECT_EQ(set.view_count(), 3u);
    EXPECT_NE(set.address_of(0, 64), set.address_of(1, 64));
    EXPECT_EQ(set.view(2).range_base + kGranularity, set.view(2).address);
    EXPECT_EQ(fake_.log, (std::vector<std::string>{"create", "reserve", "map", "access", "reserve", "map", "access",
                                                   "reserve", "map", "access"}));
    built = fake_.log.size();
  }
  expect_nothing_held();
  // The whole order, not only unmap before release: unmap every view (last first), release the
  // allocation, then free every range (last first).
  EXPECT_EQ(calls_after(fake_.log, built),
            (std::vector<std::string>{"unmap", "unmap", "unmap", "release", "free", "free", "free"}));
  EXPECT_EQ(fake_.unmapped_order, (std::vector<CUdeviceptr>{fake_.mapped_order[2], fake_.mapped_order[1], fake_.mapped_order[0]}));
}

// Memory of another kind (vmm/memory_kind.hpp): its size rounded up to the kind's granularity, and every
// view granted to the device, whatever its spec said -- host NUMA memory's own location is no device.
TEST_F(VmmRollback, AnAliasSetOfAKindGrantsEveryViewToTheDevice) {
  MemoryKind k;
  k.granularity = kGranularity;
  std::vector<ViewSpec> views = {{0}, {kGranularity}};
  views[0].grant_to = std::vector<int>{};  // none
  const AliasSet set = alias_set_of(patterns::Memory::HostNuma, k, 0, kGranularity + 1, views);
  EXPECT_EQ(set.size(), 2 * kGranularity);
  EXPECT_EQ(set.granularity(), kGranularity);
  EXPECT_EQ(set.view(1).range_base + kGranularity, set.view(1).address);
  EXPECT_EQ(fake_.log, (std::vector<std::string>{"create", "reserve", "map", "access", "reserve", "map", "access"}));
}

TEST_F(VmmRollback, AFailedBuildUnwindsInTheGuidesOrderToo) {
  for (int k = 2; k <= 10; ++k) {  // the create succeeded: there is something to unwind
    fake_ = FakeDriver{};
    fake_.fail_at = k;
    EXPECT_THROW(AliasSet(0, 3 * kGranularity, kViews), CudaError) << "step " << k;
    const std::size_t first_undo = static_cast<std::size_t>(std::find_if(fake_.log.begin(), fake_.log.end(), [](const std::string& c) {
                                     return c == "unmap" || c == "release" || c == "free";
                                   }) - fake_.log.begin());
    const std::vector<std::string> undo = calls_after(fake_.log, first_undo);
    EXPECT_TRUE(in_release_order(undo)) << "step " << k << ": " << ::testing::PrintToString(undo);
    EXPECT_EQ(std::count(undo.begin(), undo.end(), "release"), 1) << "step " << k;
    expect_nothing_held();
  }
}

TEST_F(VmmRollback, AFailedReleaseKeepsTheHandleAndTheDestructorTriesAgain) {
  {
    PhysicalAllocation a(0, kGranularity);
    fake_.refuse_release = 1;
    EXPECT_EQ(a.release(), CUDA_ERROR_INVALID_VALUE);
    EXPECT_NE(a.handle(), 0u);  // still owned
  }
  expect_nothing_held();  // the destructor released it
  EXPECT_EQ(std::count(fake_.log.begin(), fake_.log.end(), "release"), 1);
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
