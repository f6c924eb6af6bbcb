#pragma once
// Which ways of moving an exported file descriptor to another process work here (for `vmmcheck probe`):
// SCM_RIGHTS over a Unix socket, and pidfd_getfd (refused without ptrace rights over the sender, as in
// many containers: pytorch#165685). Each is tried with a second vmmcheck process and a plain file: no GPU.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/unique_fd.hpp"
#include "run/kit/peer_protocol.hpp"

namespace vmmcheck::run::peer {

// Name the file attached, or file `fd` of process `pid`, by device and inode. No GPU.
struct FdIdentity {
  static constexpr std::string_view kOp = "fd_identity";
  std::optional<long long> pid;
  std::optional<int> fd;
  static constexpr auto kFields = std::make_tuple(field("pid", &FdIdentity::pid), field("fd", &FdIdentity::fd));
  void validate() const {
    if (pid && !fd) throw ProtocolError("fd_identity: 'pid' without 'fd'");
  }
};

}  // namespace vmmcheck::run::peer

namespace vmmcheck::run {

// {"scm_rights", "works" | why not}, {"pidfd_getfd", "works" | why not}.
std::vector<std::pair<std::string, std::string>> probe_fd_transports();

// The other process's side (listed in patterns/peer_registry.hpp): needs no GPU, so no session state.
nlohmann::json handle(const peer::FdIdentity& q, UniqueFd fd);

}  // namespace vmmcheck::run
