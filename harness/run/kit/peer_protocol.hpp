#pragma once
// The requests a case's first process sends the second (`vmmcheck ipc-peer`, or an MPI rank serving
// import sessions): one type per operation, one variant, one codec. Each travels as one JSON message
// {"op": NAME, ...fields}, a file descriptor attached where the type says so; each gets one reply, its
// body, or {"error": "..."} (with "not_supported": true where the environment lacks what was asked).
// An unknown or malformed request is an error on both sides: decode() says which operation and which
// field, the server replies with that, and the client raises it -- never a hang. Each operation is
// handled by what needs it (harness/run/kit/peer_state.hpp declares the handlers).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "patterns/vocabulary.hpp"

namespace vmmcheck::run::peer {

// Import the exported allocation (a POSIX fd: attached for scm_rights, copied out of process `pid` by
// pidfd_getfd) and map it twice.                                                     (ipc)
struct Import {
  std::size_t size = 0;
  patterns::Transport transport = patterns::Transport::ScmRights;
  long long pid = 0;  // pidfd_getfd: whose descriptor
  int fd = -1;        // pidfd_getfd: its number there
};
// Import a fabric handle (hex) and map it, granted to this device or not.           (fabric)
struct ImportFabric {
  std::size_t size = 0;
  std::string handle;
  bool grant = true;
};
// Open the first process's interprocess event (hex of cudaIpcEventHandle_t).         (ipc, multicast)
struct OpenEvent {
  std::string handle;
};
// Map and pin the latch page attached (a memfd: harness/run/kit/hold.hpp).           (ipc, multicast)
struct AttachLatch {};
// Read `words` words through mapping `view` once, so caches hold them.               (ipc)
struct Prime {
  int view = 0;
  std::uint64_t words = 0;
};
// Count new / old / other over `words` words through `view`, after the event when wait_event, raising
// the latch with `raise` just before. Reply: {bins: [...]}.                          (ipc)
struct Read {
  int view = 0;
  std::uint64_t words = 0;
  std::uint32_t new_value = 0, old_value = 0;
  bool wait_event = false;
  std::optional<std::uint32_t> raise;
};
// Copy `words` words of `view` back and count those equal to `value`. Reply: {right: n} or {fault: e}. (fabric)
struct Check {
  int view = 0;
  std::uint64_t words = 0;
  std::uint32_t value = 0;
};
// Join the multicast team whose object is attached (asking the gate again here).     (multicast)
struct McJoin {
  std::size_t size = 0;
};
// Fill this process's memory of the team.                                            (multicast)
struct McFill {
  std::uint64_t words = 0;
  std::uint32_t value = 0;
};
// The second access of a two-process multicast case. Reply: {bins: [...]}.           (multicast)
struct McSecond {
  std::uint64_t words = 0;
  patterns::MulticastOp op = patterns::MulticastOp::Store;
  std::uint32_t value = 0;
  bool wait_event = false;
  std::optional<std::uint32_t> raise;
};
// Name the file attached, or file `fd` of process `pid`, by device and inode. No GPU. (the fd probe)
struct FdIdentity {
  std::optional<long long> pid;
  int fd = -1;
};
// Import the POSIX fd attached again and again (releasing each import), timing each import here, with
// the policy of bench/sampler.hpp. Reply: {values: [microseconds...]}.               (vmmcheck bench)
struct BenchImport {
  std::size_t size = 0;
  unsigned warmup = 0, min_samples = 1, max_samples = 1;
  double seconds = 0;
};
// End this session; end an MPI rank's server.
struct Exit {};
struct Shutdown {};

using Request = std::variant<Import, ImportFabric, OpenEvent, AttachLatch, Prime, Read, Check, McJoin, McFill,
                             McSecond, FdIdentity, BenchImport, Exit, Shutdown>;

// A request that is not one: unknown operation, a missing field, a value of the wrong type.
struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The environment lacks what a request needs: the first process makes its case NotSupported.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string_view name_of(const Request& r);
nlohmann::json encode(const Request& r);
Request decode(const nlohmann::json& message);  // throws ProtocolError

}  // namespace vmmcheck::run::peer
