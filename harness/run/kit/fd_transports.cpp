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
        const nlohmann::json reply = scm ? peer.call({{"op", "fd_identity"}}, file.get())
                                         : peer.call({{"op", "fd_identity"}, {"pid", static_cast<long long>(getpid())}, {"fd", file.get()}});
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

}  // namespace vmmcheck::run
