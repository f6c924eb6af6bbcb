#include "run/kit/peer_work.hpp"

#include "common/error.hpp"
#include "ipc/transport.hpp"

namespace vmmcheck::run {

Event share_event(PeerProcess& peer) {
  cudaEvent_t raw = nullptr;
  CUDA_CHECK(cudaEventCreateWithFlags(&raw, cudaEventInterprocess | cudaEventDisableTiming));
  Event event(raw);
  cudaIpcEventHandle_t h{};
  CUDA_CHECK(cudaIpcGetEventHandle(&h, event));
  peer.call(peer::OpenEvent{ipc::to_hex(&h, sizeof h)});
  return event;
}

SharedHostPage share_latch(PeerProcess& peer) {
  SharedHostPage page = SharedHostPage::create();
  peer.call(peer::AttachLatch{}, page.fd());
  return page;
}

void add_bins(Histogram& h, const nlohmann::json& reply) {
  const auto bins = reply.at("bins").get<std::vector<unsigned long long>>();
  for (std::size_t bin = 0; bin < h.size() && bin < bins.size(); ++bin) h[bin].second += bins[bin];
}

}  // namespace vmmcheck::run
