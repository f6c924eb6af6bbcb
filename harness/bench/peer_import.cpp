// The second process's side of ipc.import_fd[process=other] (bench/ipc_fd.cpp): import the descriptor
// the first process passed, again and again, timing each import here.
#include <cstdint>

#include "bench/sampler.hpp"
#include "bench/peer_requests.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::run {

nlohmann::json handle(PeerState& s, const peer::BenchImport& q, UniqueFd fd) {
  if (!fd.held()) throw peer::ProtocolError("bench_import: no descriptor attached");
  void* shareable = reinterpret_cast<void*>(static_cast<std::intptr_t>(fd.get()));
  const bench::Policy policy{q.warmup, q.min_samples, q.max_samples, q.seconds};
  const auto values = bench::sample(policy, 1, [&](std::vector<double>& t) {
    vmm::PhysicalAllocation imported;
    t[0] = bench::time_us([&] {
      imported = vmm::PhysicalAllocation::imported(shareable, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, q.size, s.device());
    });
  });
  return {{"values", values[0]}};
}

}  // namespace vmmcheck::run
