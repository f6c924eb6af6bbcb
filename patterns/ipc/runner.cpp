// Runner of ipc.* (patterns/ipc/definition.hpp): this process exports its allocation as a POSIX file descriptor; a
// second vmmcheck process (run/execution/peer_server.hpp) imports it, maps it twice and reads through one of its
// mappings after this process's writer kernel -- ordered by an interprocess event, by the host, or not
// at all. The writer is held until the reader starts (run/kit/hold.hpp, a latch in a page both processes
// share): the request crosses a socket, so without the hold the writer would be done before the reader
// could start, ordered or not. Every word the reader counts is one instance.
#include <unistd.h>

#include "patterns/ipc/peer_requests.hpp"
#include "run/kit/support.hpp"
#include "common/driver.hpp"
#include "common/error.hpp"
#include "ipc/transport.hpp"
#include "kernels/operations.hpp"
#include "run/kit/checked_words.hpp"
#include "run/kit/hold.hpp"
#include "run/kit/mutants.hpp"
#include "run/kit/operations.hpp"
#include "run/kit/peer_process.hpp"
#include "run/kit/peer_work.hpp"
#include "run/kit/session.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {

using nlohmann::json;

void run_pattern(GpuSession& s, const patterns::Ipc& def, const model::Case& c, CaseResult& r) {
  using patterns::Order;
  const int dev = s.device();
  const Budget& b = s.budget();
  const std::uint64_t n = b.op_words;
  const std::size_t g = vmm::allocation_granularity(dev, false);
  vmm::AliasSet set(vmm::PhysicalAllocation(dev, vmm::round_up(n * 4, g), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR), g,
                    {vmm::ViewSpec{}});
  std::uint32_t* const a = words_at(set.view(0).address);
  UniqueFd exported = vmm::export_fd(set.handle());

  PeerProcess peer(dev);
  try {
    peer::Import import{set.size(), def.transport};
    if (def.transport == patterns::Transport::PidfdGetfd) {
      import.pid = static_cast<long long>(getpid());
      import.fd = exported.get();
      peer.call(import);
    } else {
      peer.call(import, exported.get());
    }
  } catch (const ipc::TransportError& e) {
    if (peer.last_not_supported()) throw NotSupportedError(std::string("the exported descriptor could not be moved: ") + e.what());
    throw;
  }
  if (def.exporter == patterns::Exporter::Released) {
    // The importer holds its own reference: this process's handle and descriptor may go (guide 4.17.3.4).
    exported.reset();
    VMM_CHECK(set.release_handle());
  }
  Event event;
  if (def.order == Order::Event) event = share_event(peer);
  const SharedHostPage latch = share_latch(peer);
  Hold hold(latch.words(), kHoldAcrossProcesses);

  const int view = def.view == patterns::ImportView::First ? 0 : 1;
  for (std::uint32_t it = 0; it < b.iterations; ++it) {
    const Values v = values_for(b, c.name, it);
    fill(set.view(0).address, n, v.old_value, s.work());
    peer.call(peer::Prime{view, n});  // the reader's caches now hold old values
    // The reader raises the latch as it starts: after its event wait, when it has one.
    const peer::Read read{view, n, v.new_value, v.old_value, def.order == Order::Event && !mutated(Mutant::NoEventWait),
                          v.new_value};
    hold.before_earlier(s.work(), v.new_value);
    kernels::launch_fill(a, n, v.new_value, s.work());
    if (def.order == Order::Event) CUDA_CHECK(cudaEventRecord(event, s.work()));  // before the request: its wait is for this writer
    if (def.order == Order::Host && !mutated(Mutant::NoHostSync)) CUDA_CHECK(cudaStreamSynchronize(s.work()));
    const json counted = peer.call(read);
    CUDA_CHECK(cudaStreamSynchronize(s.work()));
    hold.count(v.new_value);
    add_bins(r.histogram, counted);
  }
  r.instances = n * b.iterations;
  r.reason = hold.summary("writer", "other process's reader");
}

// The allocation is exported as a POSIX file descriptor, and the descriptor must reach the other process
// the way the case names.
std::string why_not_here(const patterns::Ipc& def, const device::ProbeReport& machine, int device) {
  if (!machine.devices.at(static_cast<std::size_t>(device)).posix_fd)
    return "device " + std::to_string(device) +
           " does not export POSIX file descriptors (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 0)";
  const std::string_view transport = patterns::token(def.transport);
  for (const auto& [name, how] : machine.fd_transports)
    if (name == transport && how != "works") return "the exported descriptor cannot be moved with " + name + " here: " + how;
  return "";
}

}  // namespace vmmcheck::run
