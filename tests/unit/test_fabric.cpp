// Fabric handles against a fake driver (harness/vmm/fabric.cpp): the probe's trial allocation, and the
// reasons that make a fabric case NotSupported -- "no IMEX channel: ..." with the evidence -- never a failure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "vmm/fabric.hpp"

namespace vmmcheck::vmm {
namespace {

struct FakeFabric {
  int attribute = 1;
  CUresult create = CUDA_SUCCESS;
  CUresult exported = CUDA_SUCCESS;
  std::vector<std::string> calls;
};
FakeFabric* f = nullptr;

CUresult device_get(CUdevice* d, int ordinal) {
  *d = ordinal;
  return CUDA_SUCCESS;
}
CUresult attribute(int* value, CUdevice_attribute a, CUdevice) {
  *value = a == CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED ? f->attribute : 0;
  return CUDA_SUCCESS;
}
CUresult granularity(size_t* g, const CUmemAllocationProp* prop, CUmemAllocationGranularity_flags) {
  f->calls.push_back("granularity " + std::to_string(prop->requestedHandleTypes));
  *g = 2u << 20;
  return CUDA_SUCCESS;
}
CUresult create(CUmemGenericAllocationHandle* h, size_t, const CUmemAllocationProp* prop, unsigned long long) {
  f->calls.push_back("create " + std::to_string(prop->requestedHandleTypes));
  if (f->create != CUDA_SUCCESS) return f->create;
  *h = 42;
  return CUDA_SUCCESS;
}
CUresult release(CUmemGenericAllocationHandle h) {
  f->calls.push_back("release " + std::to_string(h));
  return CUDA_SUCCESS;
}
CUresult export_handle(void* out, CUmemGenericAllocationHandle h, CUmemAllocationHandleType type, unsigned long long) {
  f->calls.push_back("export " + std::to_string(h) + " " + std::to_string(type));
  if (f->exported != CUDA_SUCCESS) return f->exported;
  static_cast<CUmemFabricHandle*>(out)->data[0] = 0xab;
  return CUDA_SUCCESS;
}
CUresult error_name(CUresult r, const char** name) {
  *name = r == CUDA_ERROR_NOT_PERMITTED ? "CUDA_ERROR_NOT_PERMITTED" : r == CUDA_ERROR_NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" : "CUDA_SUCCESS";
  return CUDA_SUCCESS;
}

const std::string kFabric = std::to_string(CU_MEM_HANDLE_TYPE_FABRIC);

class FabricTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api.cuDeviceGet = device_get;
    api.cuDeviceGetAttribute = attribute;
    api.cuMemGetAllocationGranularity = granularity;
    api.cuMemCreate = create;
    api.cuMemRelease = release;
    api.cuMemExportToShareableHandle = export_handle;
    api.cuGetErrorName = error_name;
    f = &fake;
    set_driver_for_testing(&api);
    dir = std::filesystem::temp_directory_path() / ("vmmcheck-fabric-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir / "channels");
    std::ofstream(dir / "params") << "ResmanDebugLevel: 4294967295\nImexChannelCount: 2048\nEnableGpuFirmware: 18\n";
    paths = {(dir / "params").string(), (dir / "channels").string()};
  }
  void TearDown() override {
    set_driver_for_testing(nullptr);
    f = nullptr;
    std::filesystem::remove_all(dir);
  }
  DriverApi api;
  FakeFabric fake;
  std::filesystem::path dir;
  FabricPaths paths;
};

TEST_F(FabricTest, NoAttributeMeansNoTrial) {
  fake.attribute = 0;
  const FabricProbe p = probe_fabric(0, paths);
  EXPECT_FALSE(p.usable);
  EXPECT_EQ(p.trial, "not tried");
  EXPECT_NE(p.reason.find("CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED = 0"), std::string::npos) << p.reason;
  EXPECT_TRUE(fake.calls.empty());
}

TEST_F(FabricTest, ARefusedTrialWithoutAChannelIsNoImexChannelWithTheEvidence) {
  fake.create = CUDA_ERROR_NOT_PERMITTED;
  const FabricProbe p = probe_fabric(0, paths);
  EXPECT_FALSE(p.usable);
  EXPECT_EQ(p.trial, "CUDA_ERROR_NOT_PERMITTED");
  EXPECT_EQ(p.imex_channel_count, 2048);
  EXPECT_FALSE(p.channel_device);
  EXPECT_EQ(p.reason, "no IMEX channel: cuMemCreate(CU_MEM_HANDLE_TYPE_FABRIC) returned CUDA_ERROR_NOT_PERMITTED "
                      "(ImexChannelCount 2048, " + paths.channels + "/channel0 absent)");
  EXPECT_EQ(fake.calls, (std::vector<std::string>{"granularity " + kFabric, "create " + kFabric}));  // nothing to release
  // The case that needs it is NotSupported with that reason, and makes no further call.
  fake.calls.clear();
  try {
    create_fabric_export(0, 2u << 20, paths);
    FAIL() << "a fabric export was made without a channel";
  } catch (const NotSupportedError& e) {
    EXPECT_EQ(std::string(e.what()), p.reason);
  }
  EXPECT_EQ(fake.calls.size(), 2u);
}

TEST_F(FabricTest, ARefusedExportReleasesTheTrialAllocation) {
  std::ofstream(dir / "channels" / "channel0") << "";
  fake.exported = CUDA_ERROR_NOT_SUPPORTED;
  const FabricProbe p = probe_fabric(0, paths);
  EXPECT_FALSE(p.usable);
  EXPECT_TRUE(p.channel_device);
  EXPECT_EQ(p.reason.rfind("fabric handles refused: cuMemExportToShareableHandle(CU_MEM_HANDLE_TYPE_FABRIC) returned "
                           "CUDA_ERROR_NOT_SUPPORTED", 0), 0u) << p.reason;
  EXPECT_EQ(fake.calls, (std::vector<std::string>{"granularity " + kFabric, "create " + kFabric, "export 42 " + kFabric, "release 42"}));
}

TEST_F(FabricTest, AUsableFabricExportsTheCasesAllocation) {
  std::ofstream(dir / "channels" / "channel0") << "";
  const FabricProbe p = probe_fabric(0, paths);
  EXPECT_TRUE(p.usable) << p.reason;
  EXPECT_EQ(p.trial, "CUDA_SUCCESS");
  fake.calls.clear();
  {
    const FabricExport e = create_fabric_export(0, 2u << 20, paths);
    EXPECT_EQ(e.handle.data[0], 0xab);
    EXPECT_EQ(e.allocation.handle(), 42u);
  }
  // The trial (made and released), then the case's allocation, exported, released when its owner goes.
  EXPECT_EQ(fake.calls, (std::vector<std::string>{"granularity " + kFabric, "create " + kFabric, "export 42 " + kFabric,
                                                  "release 42", "create " + kFabric, "export 42 " + kFabric, "release 42"}));
}

}  // namespace
}  // namespace vmmcheck::vmm
