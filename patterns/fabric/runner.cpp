// Runner of fabric.* (patterns/fabric/definition.hpp): an allocation exported as a fabric handle, imported in this
// process or in a second one (run/execution/peer_server.hpp), mapped, and read back there after this process wrote it.
#include "patterns/fabric/peer_requests.hpp"
#include "run/kit/support.hpp"
#include "common/error.hpp"
#include "ipc/transport.hpp"
#include "kernels/contract.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/peer_process.hpp"
#include "run/kit/session.hpp"
#include "vmm/alias_set.hpp"
#include "vmm/fabric.hpp"

namespace vmmcheck::run {
namespace {

constexpr std::uint32_t kValue = 0xfab1c001u;

static_assert(patterns::Fabric::Completed == kCompleted && patterns::Fabric::Fault == kFault && patterns::Fabric::Wrong == kWrong);

}  // namespace

void run_pattern(GpuSession& s, const patterns::Fabric& def, const model::Case&, CaseResult& r) {
  const int dev = s.device();
  const std::size_t g = vmm::allocation_granularity(dev, false);
  const std::uint64_t words = g / 4;
  const bool grant = def.grant == patterns::Grant::ReadWrite && !mutated(Mutant::NoGrant);
  vmm::FabricExport e = vmm::create_fabric_export(dev, g);  // NotSupported without an IMEX channel
  const CUmemFabricHandle handle = e.handle;
  const vmm::AliasSet exporter(std::move(e.allocation), g, {vmm::ViewSpec{}});
  fill(exporter.view(0).address, words, kValue, s.work());
  r.instances = 1;

  if (def.importer == patterns::Importer::OtherProcess) {
    PeerProcess peer(dev);
    peer.call(peer::ImportFabric{g, ipc::to_hex(&handle, sizeof handle), grant});
    const nlohmann::json got = peer.call(peer::Check{0, words, kValue});
    if (got.contains("fault")) {
      add_bin(r.histogram, patterns::Fabric::Fault);
      r.reason = "the other process's read faulted: " + got.at("fault").get<std::string>();
      return;
    }
    count_words(got.at("right").get<std::uint64_t>(), words, r);
    return;
  }
  vmm::ViewSpec view;
  if (!grant) view.grant_to = std::vector<int>{};
  CUmemFabricHandle shareable = handle;
  const vmm::AliasSet importer(vmm::PhysicalAllocation::imported(&shareable, CU_MEM_HANDLE_TYPE_FABRIC, g, dev), g, {view});
  check_read(s, importer.view(0).address, words, kValue, s.work(), "the read through the imported mapping", r);
}

// A fabric handle needs an IMEX channel this process may open: the probe's trial allocation says.
std::string why_not_here(const patterns::Fabric&, const device::ProbeReport& machine, int device) {
  return machine.devices.at(static_cast<std::size_t>(device)).fabric_reason;
}

}  // namespace vmmcheck::run
