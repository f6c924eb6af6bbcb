#pragma once
// The parent's handle on a second vmmcheck process (`vmmcheck ipc-peer`) that imports what this one
// exports and runs kernels there: the other side of every ipc.* case. It talks JSON over a Unix socket
// (ipc/transport.hpp) that the child finds on descriptor 3; every request gets one reply, its body
// or `{"error": "..."}` (run/kit/peer_protocol.hpp). The child dies with this process (PR_SET_PDEATHSIG) and with its owner: the
// destructor asks it to exit, then kills its process group if it has not gone within a few seconds.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/unique_fd.hpp"
#include "run/kit/peer_protocol.hpp"

namespace vmmcheck::run {

// The program to start as the other process: $VMMCHECK_PROGRAM when set (test binaries set it to the
// vmmcheck they were built with), else this executable.
std::string peer_program();

class PeerProcess {
 public:
  static constexpr int kSocketFd = 3;  // where the child finds its end of the socket

  // Starts `peer_program() ipc-peer --device <device>`, or, with a connector set, opens a session
  // with the process the connector reaches (an MPI rank: cli/mpi_run.hpp; it uses a GPU of its own).
  // Throws TransportError if it cannot.
  explicit PeerProcess(int device);

  // Where sessions go instead of a new child: a function returning a socket connected to a server of
  // serve_session (run/execution/peer_server.hpp). Empty: a child per PeerProcess (the default).
  using Connector = std::function<UniqueFd()>;
  static void set_connector(Connector connector);
  ~PeerProcess();
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;

  // Sends `request` (a request type: run/kit/peer_protocol.hpp; with descriptor `fd` attached when >= 0)
  // and waits for the reply's body. Throws TransportError with the child's message when it answers
  // {"error": ...}, TransportTimeout when it does not answer within `timeout`.
  template <typename Request>
  nlohmann::json call(const Request& request, int fd = -1, std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    return call_encoded(peer::encode(request), fd, timeout);
  }
  nlohmann::json call_encoded(const nlohmann::json& message, int fd, std::chrono::milliseconds timeout);

  pid_t pid() const { return pid_; }
  // Whether the last error reply said the environment lacks what was asked ("not_supported").
  bool last_not_supported() const { return last_not_supported_; }

 private:
  UniqueFd socket_;
  bool last_not_supported_ = false;
  pid_t pid_ = -1;
};

// The importing side: one reply per request, on a connected socket it does not own.
class PeerChannel {
 public:
  explicit PeerChannel(int socket) : socket_(socket) {}
  static bool is_socket(int fd);
  struct Message {
    std::string text;
    UniqueFd fd;
  };
  // The next message; waits as long as it takes (the parent bounds the exchange).
  Message next();
  void reply(const nlohmann::json& body);
  // A message's JSON; throws peer::ProtocolError when it is not JSON.
  static nlohmann::json parse(const std::string& text);

 private:
  int socket_ = -1;
};

}  // namespace vmmcheck::run
