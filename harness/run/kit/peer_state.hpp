#pragma once
// The second process's side of a session (harness/run/execution/peer_server.hpp): what the handlers of
// one session's requests share -- the device, a stream, counters and a sink for warming loads, the first
// process's interprocess event and latch page, the allocation imported.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/cuda_objects.hpp"
#include "common/unique_fd.hpp"
#include "run/kit/devices.hpp"
#include "run/kit/hold.hpp"
#include "vmm/alias_set.hpp"

namespace vmmcheck::run {

class PeerState {
 public:
  explicit PeerState(int device);

  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  std::uint32_t* sink() const { return sink_.get(); }

  // A counting kernel `launch(counters)` queued on this process's stream: after the first process's
  // interprocess event when `wait_event`, and after raising the shared latch with `raise` when set (the
  // first process's access waits for it: run/kit/hold.hpp). Returns the reply {"bins": [...]}.
  nlohmann::json counted(bool wait_event, std::optional<std::uint32_t> raise,
                         const std::function<void(unsigned long long*)>& launch);

  // The allocation imported, mapped as `views` (replacing any earlier one); one of its mappings.
  void map_import(vmm::PhysicalAllocation a, const std::vector<vmm::ViewSpec>& views);
  std::uint32_t* view(int index) const;

  // What one pattern keeps across its requests (multicast's part of a team): destroyed with the session.
  struct Extension {
    virtual ~Extension() = default;
  };
  std::unique_ptr<Extension> extension;

  Event event;                        // the first process's interprocess event (OpenEvent)
  std::optional<SharedHostPage> latch;  // the first process's latch page (AttachLatch)

 private:
  int device_;
  Stream stream_;
  DeviceBuffer<std::uint32_t> sink_;
  std::optional<HistogramBuffer> counts_;
  std::optional<vmm::AliasSet> imported_;
};

// A handler is declared beside its request type (run/kit/peer_protocol.hpp says where those live):
//   nlohmann::json handle(PeerState& s, const peer::Q& q, UniqueFd fd);
// It returns the reply's body, or throws (peer::Unavailable where the environment lacks what the request
// needs); the server turns a throw into {"error": ...}. One that needs no GPU takes no state.

}  // namespace vmmcheck::run
