#include "vmm/multicast.hpp"

#include <cstdint>
#include <mutex>
#include <utility>
#include <string>

#include "common/driver.hpp"
#include "common/error.hpp"

namespace vmmcheck::vmm {
namespace {

// Multicast objects came with CUDA 12.1.
constexpr int kMulticastVersion = 12010;

const MulticastApi* g_fake = nullptr;

const MulticastApi& multicast_driver() {
  if (g_fake) return *g_fake;
  static std::once_flag once;
  static MulticastApi real;
  static bool complete = false;
  std::call_once(once, [] {
    complete = resolve_driver_entry_point("cuMulticastGetGranularity", reinterpret_cast<void**>(&real.get_granularity),
                                          kMulticastVersion) &&
               resolve_driver_entry_point("cuMulticastCreate", reinterpret_cast<void**>(&real.create), kMulticastVersion) &&
               resolve_driver_entry_point("cuMulticastAddDevice", reinterpret_cast<void**>(&real.add_device),
                                          kMulticastVersion) &&
               resolve_driver_entry_point("cuMulticastBindMem", reinterpret_cast<void**>(&real.bind_mem), kMulticastVersion) &&
               resolve_driver_entry_point("cuMulticastUnbind", reinterpret_cast<void**>(&real.unbind), kMulticastVersion);
    real.release = driver().cuMemRelease;
    real.export_handle = driver().cuMemExportToShareableHandle;
    real.import_handle = driver().cuMemImportFromShareableHandle;
  });
  if (!complete) throw NotSupportedError("this driver has no multicast API (cuMulticast* entry points)");
  return real;
}

// Throws for a failed step: NotSupportedError when the environment is not ready, CudaError otherwise.
void check(CUresult status, const char* step) {
  if (status == CUDA_SUCCESS) return;
  const std::string what = std::string(step) + " returned " + driver_error_name(status);
  if (environment_not_ready(status))
    throw NotSupportedError("multicast environment not ready: " + what +
                            " (the fabric manager, the NVSwitch, or its multicast resources)");
  throw CudaError(status, driver_error_name(status), step, __FILE__, __LINE__);
}

}  // namespace

void set_multicast_driver_for_testing(const MulticastApi* fake) { g_fake = fake; }

bool environment_not_ready(CUresult status) {
  return status == CUDA_ERROR_ILLEGAL_STATE || status == CUDA_ERROR_SYSTEM_NOT_READY || status == CUDA_ERROR_OUT_OF_MEMORY;
}

std::size_t multicast_size(const device::GateDecision& gate, std::size_t devices, std::size_t size) {
  // The gate first: refused, not one multicast call is made.
  if (!gate.allowed) throw NotSupportedError("multicast refused by the gate: " + gate.reason);
  if (devices == 0) throw InputError("a multicast team needs at least one device");
  CUmulticastObjectProp prop = {};
  prop.numDevices = static_cast<unsigned int>(devices);
  prop.size = size;
  prop.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  std::size_t granularity = 0;
  check(multicast_driver().get_granularity(&granularity, &prop, CU_MULTICAST_GRANULARITY_MINIMUM),
        "cuMulticastGetGranularity");
  if (granularity == 0) throw NotSupportedError("cuMulticastGetGranularity returned a granularity of 0");
  return (size + granularity - 1) / granularity * granularity;
}

MulticastTeam::MulticastTeam(const device::GateDecision& gate, const std::vector<TeamMember>& members, std::size_t size) {
  size_ = multicast_size(gate, members.size(), size);  // checks the gate before any call
  const MulticastApi& mc = multicast_driver();
  CUmulticastObjectProp prop = {};
  prop.numDevices = static_cast<unsigned int>(members.size());
  prop.size = size_;
  prop.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  check(mc.create(&handle_, &prop), "cuMulticastCreate");
  try {
    // Every device joins before any memory is bound (a bind blocks until the team is complete).
    for (const TeamMember& m : members) check(mc.add_device(handle_, m.device), "cuMulticastAddDevice");
    for (const TeamMember& m : members) {
      check(mc.bind_mem(handle_, 0, m.memory, 0, size_, 0), "cuMulticastBindMem");
      bound_.push_back(m.device);
    }
  } catch (...) {
    undo();
    throw;
  }
}

MulticastTeam::MulticastTeam(const device::GateDecision& gate, std::size_t team_size, const TeamMember& own,
                             std::size_t size, Shared) {
  size_ = multicast_size(gate, team_size, size);  // checks the gate before any call
  const MulticastApi& mc = multicast_driver();
  CUmulticastObjectProp prop = {};
  prop.numDevices = static_cast<unsigned int>(team_size);
  prop.size = size_;
  prop.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  check(mc.create(&handle_, &prop), "cuMulticastCreate");
  try {
    check(mc.add_device(handle_, own.device), "cuMulticastAddDevice");
  } catch (...) {
    undo();
    throw;
  }
  own_ = own;
}

int MulticastTeam::export_fd() const {
  int fd = -1;
  check(multicast_driver().export_handle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemExportToShareableHandle (multicast object)");
  return fd;
}

void MulticastTeam::bind_own() {
  check(multicast_driver().bind_mem(handle_, 0, own_.memory, 0, size_, 0), "cuMulticastBindMem");
  bound_.push_back(own_.device);
}

MulticastTeam MulticastTeam::join(const device::GateDecision& gate, int fd, std::size_t size, const TeamMember& own) {
  if (!gate.allowed) throw NotSupportedError("multicast refused by the gate: " + gate.reason);
  const MulticastApi& mc = multicast_driver();
  MulticastTeam t;
  t.size_ = size;
  check(mc.import_handle(&t.handle_, reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
        "cuMemImportFromShareableHandle (multicast object)");
  check(mc.add_device(t.handle_, own.device), "cuMulticastAddDevice");  // on failure t's destructor undoes
  check(mc.bind_mem(t.handle_, 0, own.memory, 0, size, 0), "cuMulticastBindMem");
  t.bound_.push_back(own.device);
  return t;
}

MulticastTeam::MulticastTeam(MulticastTeam&& other) noexcept
    : handle_(std::exchange(other.handle_, 0)),
      size_(other.size_),
      bound_(std::move(other.bound_)),
      own_(other.own_) {
  other.bound_.clear();
}

MulticastTeam::~MulticastTeam() { undo(); }

void MulticastTeam::undo() noexcept {
  if (handle_ == 0) return;
  const MulticastApi* mc = nullptr;
  try {
    mc = &multicast_driver();
  } catch (...) {
    return;  // cannot happen once the constructor reached the driver
  }
  for (auto it = bound_.rbegin(); it != bound_.rend(); ++it) mc->unbind(handle_, *it, 0, size_);
  bound_.clear();
  mc->release(handle_);
  handle_ = 0;
}

}  // namespace vmmcheck::vmm
