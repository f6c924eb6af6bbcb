#pragma once
// What the cases whose second access runs in another process share (ipc.*, multicast.processes): an
// interprocess event both sides hold, a latch page that holds this process's first access until the
// other's starts, and the other process's counts brought into this one's histogram.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "common/cuda_objects.hpp"
#include "run/kit/hold.hpp"
#include "run/kit/peer_process.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::run {

// An interprocess event (cudaEventInterprocess, which needs cudaEventDisableTiming), opened by `peer`
// as well ("event" request).
Event share_event(PeerProcess& peer);

// A latch page shared with `peer` (its "latch" request attaches it): the peer's kernels raise it (a
// request's "raise": token) as they start, after any event wait (run/kit/hold.hpp).
SharedHostPage share_latch(PeerProcess& peer);

// A reply's "bins" (the peer's counts, in bin order) added into `h`.
void add_bins(Histogram& h, const nlohmann::json& reply);

}  // namespace vmmcheck::run
