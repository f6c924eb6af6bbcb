#pragma once
// What `vmmcheck bench`'s ipc.import_fd[process=other] asks the second process (bench/ipc_fd.cpp asks;
// bench/peer_import.cpp answers; listed in patterns/peer_registry.hpp). The wire format:
// run/kit/peer_protocol.hpp.
#include <cstddef>

#include "common/unique_fd.hpp"
#include "run/kit/peer_protocol.hpp"
#include "run/kit/peer_state.hpp"

namespace vmmcheck::run::peer {

// Import the POSIX fd attached again and again (releasing each import), timing each import there, with
// the policy of bench/sampler.hpp. Reply: {values: [microseconds...]}.
struct BenchImport {
  static constexpr std::string_view kOp = "bench_import";
  std::size_t size = 0;
  unsigned warmup = 0, min_samples = 1, max_samples = 1;
  double seconds = 0;
  static constexpr auto kFields =
      std::make_tuple(field("size", &BenchImport::size), field("warmup", &BenchImport::warmup),
                      field("min_samples", &BenchImport::min_samples), field("max_samples", &BenchImport::max_samples),
                      field("seconds", &BenchImport::seconds));
};

}  // namespace vmmcheck::run::peer

namespace vmmcheck::run {
nlohmann::json handle(PeerState& s, const peer::BenchImport& q, UniqueFd fd);
}  // namespace vmmcheck::run
