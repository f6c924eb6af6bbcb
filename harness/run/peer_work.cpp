#include "run/peer_work.hpp"

#include "common/error.hpp"
#include "ipc/transport.hpp"

namespace vmmcheck::run {

Event share_event(PeerProcess& peer) {
  cudaEvent_t raw = nullptr;
  CUDA_CHECK(cudaEventCreateWithFlags(&raw, cudaEventInterprocess | cudaEventDisableTiming));
  Event event(raw);
  cudaIpcEventHandle_t h{};
  CUDA_CHECK(cudaIpcGetEventHandle(&h, event));
  peer.call({{"op", "event"}, {"handle", ipc::to_hex(&h, sizeof h)}});
  return event;
}

nlohmann::json call_unordered(PeerProcess& peer, nlohmann::json request, std::uint32_t repetition,
                              const std::function<void()>& write) {
  if (repetition % 2 != 0) {
    write();
    return peer.call(request);
  }
  request["announce"] = true;
  peer.send(request);
  peer.reply();  // {"launched": true}
  write();
  return peer.reply();
}

void add_bins(Histogram& h, const nlohmann::json& reply) {
  const auto bins = reply.at("bins").get<std::vector<unsigned long long>>();
  for (std::size_t bin = 0; bin < h.size() && bin < bins.size(); ++bin) h[bin].second += bins[bin];
}

}  // namespace vmmcheck::run
