#pragma once
// The one module that calls the driver's multicast API (docs/design.md, "The multicast gate"). On a
// shared multi-GPU host a program that creates multicast objects can take every GPU of the host out of
// service, so nothing here runs unless the gate allowed it: every entry point takes the gate's decision
// and, when it refused, throws NotSupportedError with its reason before any cuMulticast* call. The
// entry points are resolved here, not in the common driver table, so that no other code can reach them.
#include <cuda.h>

#include <cstddef>
#include <vector>

#include "device/multicast_gate.hpp"

namespace vmmcheck::vmm {

// The multicast entry points, and cuMemRelease for the object itself.
struct MulticastApi {
  decltype(&::cuMulticastGetGranularity) get_granularity = nullptr;
  decltype(&::cuMulticastCreate) create = nullptr;
  decltype(&::cuMulticastAddDevice) add_device = nullptr;
  decltype(&::cuMulticastBindMem) bind_mem = nullptr;
  decltype(&::cuMulticastUnbind) unbind = nullptr;
  decltype(&::cuMemRelease) release = nullptr;
  // Sharing the object between processes: generic handle calls, made here because they are made on it.
  decltype(&::cuMemExportToShareableHandle) export_handle = nullptr;
  decltype(&::cuMemImportFromShareableHandle) import_handle = nullptr;
};

// Tests only: use `fake` (or, with nullptr, the real driver again) for every later multicast call.
void set_multicast_driver_for_testing(const MulticastApi* fake);

// Statuses that say the environment is not ready, not that a rule was broken: the fabric manager or
// the NVSwitch state (CUDA_ERROR_ILLEGAL_STATE, 401; CUDA_ERROR_SYSTEM_NOT_READY, 802), and a bind
// that runs out of multicast resources (CUDA_ERROR_OUT_OF_MEMORY). A case that meets one is
// NotSupported with the status named, never Fail.
bool environment_not_ready(CUresult status);

// `size` padded to the multicast granularity for a team of `devices` (the memory each device binds must
// be at least this long). Refused by the gate: NotSupportedError before any call.
std::size_t multicast_size(const device::GateDecision& gate, std::size_t devices, std::size_t size);

// One memory allocation per device, each to be bound at the same offset of the multicast object.
struct TeamMember {
  int device = 0;
  CUmemGenericAllocationHandle memory = 0;  // created with cuMemCreate on `device`, at least `size` long
};

// A multicast object with its team, set up in the documented order (driver API cuMulticastCreate,
// cuMulticastAddDevice, cuMulticastBindMem): the size padded to the multicast granularity, create,
// add every device before any bind, bind each device's memory. The destructor undoes it in reverse:
// unbind every device (last first), release the object. A failure at any step undoes the steps before
// it and throws: NotSupportedError naming the status for environment statuses, CudaError otherwise.
// Mapping the object (cuMemMap, cuMemSetAccess) is ordinary VMM and left to the caller.
//
// A team shared between processes: the creating process makes the object for `team_size` devices with a
// POSIX file descriptor handle type and adds its own device (the Shared constructor), exports it
// (export_fd), and binds its memory last (bind_own) -- after every other process has imported the
// object, added its device and bound its memory (join). Each process undoes its own part: unbind its
// device, release its handle.
class MulticastTeam {
 public:
  MulticastTeam(const device::GateDecision& gate, const std::vector<TeamMember>& members, std::size_t size);
  struct Shared {};
  MulticastTeam(const device::GateDecision& gate, std::size_t team_size, const TeamMember& own, std::size_t size, Shared);
  // A POSIX file descriptor for the object; the caller closes it.
  int export_fd() const;
  // The creator's last step: bind its own memory (it waits until every device of the team was added).
  void bind_own();
  // Another process's part: import the object from `fd`, add `own.device`, bind `own.memory` (`size`: the
  // creator's padded size). The gate is asked first, as everywhere here.
  static MulticastTeam join(const device::GateDecision& gate, int fd, std::size_t size, const TeamMember& own);
  MulticastTeam(MulticastTeam&& other) noexcept;
  ~MulticastTeam();
  MulticastTeam(const MulticastTeam&) = delete;
  MulticastTeam& operator=(const MulticastTeam&) = delete;

  CUmemGenericAllocationHandle handle() const noexcept { return handle_; }
  std::size_t size() const noexcept { return size_; }  // padded to the multicast granularity

 private:
  void undo() noexcept;

  MulticastTeam() = default;

  CUmemGenericAllocationHandle handle_ = 0;
  std::size_t size_ = 0;
  std::vector<int> bound_;  // devices whose memory is bound, in bind order
  TeamMember own_;          // the creator's member of a shared team, bound by bind_own()
};

}  // namespace vmmcheck::vmm
