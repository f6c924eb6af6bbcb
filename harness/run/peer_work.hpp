#pragma once
// What the cases whose second access runs in another process share (ipc.*, multicast.processes): an
// interprocess event both sides hold, the unordered pair issued so that either may run first, and the
// other process's counts brought into this one's histogram.
#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "run/cuda_objects.hpp"
#include "run/peer_process.hpp"
#include "run/result.hpp"

namespace vmmcheck::run {

// An interprocess event (cudaEventInterprocess, which needs cudaEventDisableTiming), opened by `peer`
// as well ("event" request).
Event share_event(PeerProcess& peer);

// The peer's `request` (its reader) and this process's `write` with nothing between them: in even
// repetitions the request goes first, with "announce" (the peer says as soon as its kernel is queued),
// then the writer; in odd ones the writer first. Either way both are in flight at once, and which runs
// first is the GPU's choice (two processes' contexts time-slice). Returns the peer's reply.
nlohmann::json call_unordered(PeerProcess& peer, nlohmann::json request, std::uint32_t repetition,
                              const std::function<void()>& write);

// A reply's "bins" (the peer's counts, in bin order) added into `h`.
void add_bins(Histogram& h, const nlohmann::json& reply);

}  // namespace vmmcheck::run
