// ipc.*: sharing an allocation as a POSIX file descriptor (docs/bench.md): the export, and the import in
// this process and in a second one (`vmmcheck ipc-peer`, the fd passed with SCM_RIGHTS), timed where the
// import happens: the cost an importing process pays, without the socket's.
#include <cstdint>

#include "bench/bench.hpp"
#include "bench/peer_requests.hpp"
#include "run/kit/peer_process.hpp"
#include "vmm/owners.hpp"

namespace vmmcheck::bench {

void bench_ipc(Run& run, const Plan& plan) {
  const int dev = run.settings().device;
  const Policy& policy = run.settings().policy;
  for (const std::size_t size : plan.ipc_sizes) {
    std::optional<vmm::PhysicalAllocation> memory;
    const auto exportable = [&]() -> const vmm::PhysicalAllocation& {
      if (!memory) memory.emplace(dev, size, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
      return *memory;
    };
    run.measure({Row{"ipc.export_fd", Json{{"size", size}}}}, [&] {
      const CUmemGenericAllocationHandle handle = exportable().handle();
      return sample(policy, 1, [&](std::vector<double>& t) {
        UniqueFd fd;
        t[0] = time_us([&] { fd = vmm::export_fd(handle); });
      });
    });
    run.measure({Row{"ipc.import_fd", Json{{"size", size}, {"process", "same"}}}}, [&] {
      const UniqueFd fd = vmm::export_fd(exportable().handle());
      void* shareable = reinterpret_cast<void*>(static_cast<std::intptr_t>(fd.get()));
      return sample(policy, 1, [&](std::vector<double>& t) {
        vmm::PhysicalAllocation imported;
        t[0] = time_us([&] {
          imported = vmm::PhysicalAllocation::imported(shareable, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, size, dev);
        });
      });
    });
    run.measure({Row{"ipc.import_fd", Json{{"size", size}, {"process", "other"}}}}, [&] {
      const UniqueFd fd = vmm::export_fd(exportable().handle());
      run::PeerProcess peer(dev);
      const run::peer::BenchImport ask{size, policy.warmup, policy.min_samples, policy.max_samples, policy.seconds};
      // As long as the policy may take there, and then some: a slow import is a figure, not a timeout.
      const auto bound = std::chrono::seconds(120 + static_cast<long long>(4 * policy.seconds));
      const nlohmann::json reply = peer.call(ask, fd.get(), bound);
      return std::vector<std::vector<double>>{reply.at("values").get<std::vector<double>>()};
    });
  }
}

}  // namespace vmmcheck::bench
