#pragma once
// What the cases whose second access runs in another process share (ipc.*, multicast.processes): an
// interprocess event both sides hold, a latch page that holds this process's first access until the
// other's starts, and the other process's counts brought into this one's histogram.
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include <nlohmann/json.hpp>

#include "common/cuda_objects.hpp"
#include "common/unique_fd.hpp"
#include "run/kit/hold.hpp"
#include "run/kit/peer_process.hpp"
#include "run/kit/peer_protocol.hpp"
#include "run/kit/peer_state.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::run::peer {

// Open the first process's interprocess event (hex of cudaIpcEventHandle_t).
struct OpenEvent {
  static constexpr std::string_view kOp = "event";
  std::string handle;
  static constexpr auto kFields = std::make_tuple(field("handle", &OpenEvent::handle));
};
// Map and pin the latch page attached (a memfd: run/kit/hold.hpp).
struct AttachLatch {
  static constexpr std::string_view kOp = "latch";
  static constexpr auto kFields = std::make_tuple();
};

}  // namespace vmmcheck::run::peer

namespace vmmcheck::run {

// An interprocess event (cudaEventInterprocess, which needs cudaEventDisableTiming), opened by `peer`
// as well ("event" request).
Event share_event(PeerProcess& peer);

// A latch page shared with `peer` (its "latch" request attaches it): the peer's kernels raise it (a
// request's "raise": token) as they start, after any event wait (run/kit/hold.hpp).
SharedHostPage share_latch(PeerProcess& peer);

// The other side of share_event and share_latch (listed in patterns/peer_registry.hpp).
nlohmann::json handle(PeerState& s, const peer::OpenEvent& q, UniqueFd fd);
nlohmann::json handle(PeerState& s, const peer::AttachLatch& q, UniqueFd fd);

// A reply's "bins" (the peer's counts, in bin order) added into `h`.
void add_bins(Histogram& h, const nlohmann::json& reply);

}  // namespace vmmcheck::run
