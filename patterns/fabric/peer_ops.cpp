// The importing process's side of fabric.handles.other_process: import the fabric handle, map it
// (granted to this device or not), and read it back.
#include "common/error.hpp"
#include "ipc/transport.hpp"
#include "kernels/contract.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/device_fault.hpp"
#include "patterns/fabric/peer_requests.hpp"

namespace vmmcheck::run {

nlohmann::json handle(PeerState& s, const peer::ImportFabric& q, UniqueFd) {
  CUmemFabricHandle h{};
  ipc::from_hex(q.handle, &h, sizeof h);
  vmm::PhysicalAllocation a = vmm::PhysicalAllocation::imported(&h, CU_MEM_HANDLE_TYPE_FABRIC, q.size, s.device());
  // Without the grant the mapping exists but this device may not touch it (the control).
  vmm::ViewSpec v;
  if (!q.grant) v.grant_to = std::vector<int>{};
  s.map_import(std::move(a), {v});
  return {{"ok", true}};
}

nlohmann::json handle(PeerState& s, const peer::Check& q, UniqueFd) {
  DeviceBuffer<std::uint32_t> out = poisoned(q.words, s.stream());
  kernels::launch_copy_words(s.view(q.view), out.get(), q.words, s.stream());
  const cudaError_t e = cudaStreamSynchronize(s.stream());
  if (e != cudaSuccess && is_device_fault(e)) return {{"fault", cudaGetErrorName(e)}};
  CUDA_CHECK(e);
  return {{"right", matching(to_host(out, s.stream()), 0, q.words, q.value)}};
}

}  // namespace vmmcheck::run
