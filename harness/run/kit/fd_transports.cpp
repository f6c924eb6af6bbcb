#include "run/kit/fd_transports.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipc/transport.hpp"
#include "run/kit/peer_process.hpp"

namespace vmmcheck::run {
namespace {

// The other process names the file it received by device and inode; the same pair is the same file.
std::string same_file(const nlohmann::json& reply, const struct stat& sent) {
  if (reply.at("dev").get<unsigned long long>() == sent.st_dev && reply.at("ino").get<unsigned long long>() == sent.st_ino)
    return "works";
  return "a different file arrived";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> probe_fd_transports() {
  std::vector<std::pair<std::string, std::string>> out;
  const UniqueFd file(::open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!file.held() || fstat(file.get(), &st) != 0) return {{"scm_rights", "no file to send"}, {"pidfd_getfd", "no file to send"}};
  try {
    PeerProcess peer(0);  // the device is never touched by these requests
    for (const char* transport : {"scm_rights", "pidfd_getfd"}) {
      try {
        const bool scm = std::string(transport) == "scm_rights";
        const nlohmann::json reply = scm ? peer.call(peer::FdIdentity{}, file.get())
                                         : peer.call(peer::FdIdentity{static_cast<long long>(getpid()), file.get()});
        out.emplace_back(transport, same_file(reply, st));
      } catch (const ipc::TransportError& e) {
        out.emplace_back(transport, e.what());
      }
    }
  } catch (const std::exception& e) {
    out = {{"scm_rights", e.what()}, {"pidfd_getfd", e.what()}};
  }
  return out;
}

// The descriptor that came with the request (SCM_RIGHTS), or, given pid and fd, the one copied out of
// that process (pidfd_getfd), named by device and inode.
nlohmann::json handle(const peer::FdIdentity& q, UniqueFd fd) {
  if (q.pid) {
    try {
      fd = ipc::take_fd(static_cast<pid_t>(*q.pid), *q.fd);
    } catch (const ipc::TransportError& e) {
      throw peer::Unavailable(e.what());
    }
  }
  struct stat st {};
  if (!fd.held() || fstat(fd.get(), &st) != 0) throw std::runtime_error("no file descriptor arrived");
  return {{"dev", static_cast<unsigned long long>(st.st_dev)}, {"ino", static_cast<unsigned long long>(st.st_ino)}};
}

}  // namespace vmmcheck::run
