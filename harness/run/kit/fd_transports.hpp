#pragma once
// Which ways of moving an exported file descriptor to another process work here (for `vmmcheck probe`):
// SCM_RIGHTS over a Unix socket, and pidfd_getfd (refused without ptrace rights over the sender, as in
// many containers: pytorch#165685). Each is tried with a second vmmcheck process and a plain file: no GPU.
#include <string>
#include <utility>
#include <vector>

namespace vmmcheck::run {

// {"scm_rights", "works" | why not}, {"pidfd_getfd", "works" | why not}.
std::vector<std::pair<std::string, std::string>> probe_fd_transports();

}  // namespace vmmcheck::run
