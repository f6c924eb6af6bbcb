#pragma once
// Fabric handles (CU_MEM_HANDLE_TYPE_FABRIC): an allocation exported as opaque bytes that any process of
// the NVLink domain can import. The driver needs an IMEX channel for them, and devices report support
// whether or not one exists (users meet CUDA_ERROR_NOT_PERMITTED at the first create). So the only way
// to know is to try: probe_fabric() reads what the system says and makes one trial allocation.
#include <cuda.h>

#include <cstddef>
#include <string>

#include "vmm/owners.hpp"

namespace vmmcheck::vmm {

struct FabricProbe {
  bool attribute = false;        // CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED
  int imex_channel_count = -1;   // "ImexChannelCount" in the driver's params file; -1 when not there
  bool channel_device = false;   // the channels directory holds channel0
  std::string trial;             // what the trial create + export returned: "CUDA_SUCCESS" or the status
  bool usable = false;
  std::string reason;            // why not usable: "no IMEX channel: ..." and the evidence
};

// Where the probe looks (tests point these at files of their own).
struct FabricPaths {
  std::string params = "/proc/driver/nvidia/params";
  std::string channels = "/dev/nvidia-caps-imex-channels";
};

// The probe, with a trial cuMemCreate (FABRIC, one granule) and cuMemExportToShareableHandle,
// released again. Throws only for a failed query; a refused trial is usable = false with the reason.
FabricProbe probe_fabric(int device, const FabricPaths& paths = {});

// An allocation of `size` bytes on `device`, exportable as a fabric handle, and that handle. Throws
// NotSupportedError with probe_fabric's reason when fabric handles are unusable here.
struct FabricExport {
  PhysicalAllocation allocation;
  CUmemFabricHandle handle{};
};
FabricExport create_fabric_export(int device, std::size_t size, const FabricPaths& paths = {});

}  // namespace vmmcheck::vmm
