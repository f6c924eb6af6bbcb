// The importing process's side of ipc.* (run in `vmmcheck ipc-peer`, or an MPI rank's session): import
// the exported descriptor, map it twice, warm the reader's caches, count what a reader sees.
#include "common/error.hpp"
#include "ipc/transport.hpp"
#include "kernels/operations.hpp"
#include "patterns/ipc/peer_requests.hpp"

namespace vmmcheck::run {

nlohmann::json handle(PeerState& s, const peer::Import& q, UniqueFd fd) {
  if (q.transport == patterns::Transport::PidfdGetfd) {
    try {
      fd = ipc::take_fd(static_cast<pid_t>(*q.pid), *q.fd);
    } catch (const ipc::TransportError& e) {
      throw peer::Unavailable(e.what());
    }
  }
  if (!fd.held()) throw std::runtime_error("import: no file descriptor came with the request");
  // The import takes its own reference to the memory; the descriptor can go at once.
  vmm::PhysicalAllocation a = vmm::PhysicalAllocation::imported(
      reinterpret_cast<void*>(static_cast<std::uintptr_t>(fd.get())), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, q.size,
      s.device());
  fd.reset();
  s.map_import(std::move(a), {vmm::ViewSpec{}, vmm::ViewSpec{}});  // two mappings: an alias here too
  return {{"ok", true}};
}

nlohmann::json handle(PeerState& s, const peer::Prime& q, UniqueFd) {
  kernels::launch_prime(s.view(q.view), q.words, s.sink(), s.stream());
  CUDA_CHECK(cudaStreamSynchronize(s.stream()));
  return {{"ok", true}};
}

nlohmann::json handle(PeerState& s, const peer::Read& q, UniqueFd) {
  return s.counted(q.wait_event, q.raise, [&](unsigned long long* counters) {
    kernels::launch_count(s.view(q.view), q.words, patterns::Load::Weak, q.new_value, q.old_value, counters, s.stream());
  });
}

}  // namespace vmmcheck::run
