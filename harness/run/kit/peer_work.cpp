#include "run/kit/peer_work.hpp"

#include <stdexcept>

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

nlohmann::json handle(PeerState& s, const peer::OpenEvent& q, UniqueFd) {
  cudaIpcEventHandle_t h{};
  ipc::from_hex(q.handle, &h, sizeof h);
  cudaEvent_t e = nullptr;
  CUDA_CHECK(cudaIpcOpenEventHandle(&e, h));
  s.event = Event(e);
  return {{"ok", true}};
}

nlohmann::json handle(PeerState& s, const peer::AttachLatch&, UniqueFd fd) {
  if (!fd.held()) throw std::runtime_error("latch: no file descriptor came with the request");
  s.latch.emplace(SharedHostPage::attach(std::move(fd)));
  return {{"ok", true}};
}

void add_bins(Histogram& h, const nlohmann::json& reply) {
  const auto bins = reply.at("bins").get<std::vector<unsigned long long>>();
  for (std::size_t bin = 0; bin < h.size() && bin < bins.size(); ++bin) h[bin].second += bins[bin];
}

}  // namespace vmmcheck::run
