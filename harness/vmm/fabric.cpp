#include "vmm/fabric.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/driver.hpp"
#include "common/error.hpp"

namespace vmmcheck::vmm {
namespace {

int read_channel_count(const std::string& params) {
  std::ifstream in(params);
  std::string line;
  while (std::getline(in, line)) {
    // "ImexChannelCount: 2048"
    if (line.rfind("ImexChannelCount:", 0) != 0) continue;
    try {
      return std::stoi(line.substr(line.find(':') + 1));
    } catch (const std::exception&) {
      return -1;
    }
  }
  return -1;
}

std::string evidence(const FabricProbe& p, const FabricPaths& paths) {
  std::ostringstream s;
  s << "ImexChannelCount " << (p.imex_channel_count < 0 ? std::string("not in ") + paths.params : std::to_string(p.imex_channel_count))
    << ", " << paths.channels << "/channel0 " << (p.channel_device ? "present" : "absent");
  return s.str();
}

// A refused trial: the status, and what it most likely means.
std::string refused(const FabricProbe& p, const FabricPaths& paths, const char* call, CUresult status) {
  const std::string what = std::string(call) + " returned " + driver_error_name(status);
  const bool no_channel = !p.channel_device || p.imex_channel_count == 0 || status == CUDA_ERROR_NOT_PERMITTED;
  return (no_channel ? "no IMEX channel: " : "fabric handles refused: ") + what + " (" + evidence(p, paths) + ")";
}

}  // namespace

FabricProbe probe_fabric(int device, const FabricPaths& paths) {
  FabricProbe p;
  CUdevice dev = 0;
  VMM_CHECK(driver().cuDeviceGet(&dev, device));
  int supported = 0;
  VMM_CHECK(driver().cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, dev));
  p.attribute = supported != 0;
  p.imex_channel_count = read_channel_count(paths.params);
  std::error_code ec;
  p.channel_device = std::filesystem::exists(std::filesystem::path(paths.channels) / "channel0", ec);
  if (!p.attribute) {
    p.trial = "not tried";
    p.reason = "the device does not report fabric handles (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED = 0)";
    return p;
  }
  const CUmemAllocationProp prop = pinned_device_prop(device, CU_MEM_HANDLE_TYPE_FABRIC);
  std::size_t granularity = 0;
  VMM_CHECK(driver().cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle handle = 0;
  const CUresult created = driver().cuMemCreate(&handle, granularity, &prop, 0);
  if (created != CUDA_SUCCESS) {
    p.trial = driver_error_name(created);
    p.reason = refused(p, paths, "cuMemCreate(CU_MEM_HANDLE_TYPE_FABRIC)", created);
    return p;
  }
  CUmemFabricHandle fabric{};
  const CUresult exported = driver().cuMemExportToShareableHandle(&fabric, handle, CU_MEM_HANDLE_TYPE_FABRIC, 0);
  driver().cuMemRelease(handle);
  p.trial = driver_error_name(exported);
  if (exported != CUDA_SUCCESS) {
    p.reason = refused(p, paths, "cuMemExportToShareableHandle(CU_MEM_HANDLE_TYPE_FABRIC)", exported);
    return p;
  }
  p.usable = true;
  return p;
}

FabricExport create_fabric_export(int device, std::size_t size, const FabricPaths& paths) {
  const FabricProbe p = probe_fabric(device, paths);
  if (!p.usable) throw NotSupportedError(p.reason);
  FabricExport e;
  e.allocation = PhysicalAllocation(device, size, CU_MEM_HANDLE_TYPE_FABRIC);
  VMM_CHECK(driver().cuMemExportToShareableHandle(&e.handle, e.allocation.handle(), CU_MEM_HANDLE_TYPE_FABRIC, 0));
  return e;
}

}  // namespace vmmcheck::vmm
