#include "run/kit/peer_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "ipc/transport.hpp"
#include "ipc/child_process.hpp"

namespace vmmcheck::run {
using ipc::spawn_in_group;
namespace {

using nlohmann::json;
constexpr auto kExitGrace = std::chrono::seconds(5);

PeerProcess::Connector& connector() {
  static PeerProcess::Connector c;
  return c;
}

}  // namespace

std::string peer_program() {
  if (const char* program = std::getenv("VMMCHECK_PROGRAM"); program && *program) return program;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw ipc::TransportError("cannot find this program (/proc/self/exe): " + ec.message());
  return self.string();
}

void PeerProcess::set_connector(Connector c) { connector() = std::move(c); }

PeerProcess::PeerProcess(int device) {
  if (connector()) {
    socket_ = connector()();
    return;
  }
  auto [mine, theirs] = ipc::socket_pair();
  std::string error;
  // stdout goes nowhere (the child says everything in its replies); stderr stays, for what CUDA prints.
  const UniqueFd null_out(::open("/dev/null", O_WRONLY | O_CLOEXEC));
  pid_ = spawn_in_group({peer_program(), "ipc-peer", "--device", std::to_string(device)},
                        {{theirs.get(), kSocketFd}, {null_out.get(), 1}}, error);
  if (pid_ < 0) throw ipc::TransportError("could not start the other process: " + error);
  socket_ = std::move(mine);
}

PeerProcess::~PeerProcess() {
  try {
    if (socket_.held()) ipc::send_message(socket_.get(), peer::encode(peer::Exit{}).dump());
  } catch (const std::exception&) {
  }
  if (pid_ < 0) return;  // a session with a rank: it goes on serving
  const auto deadline = std::chrono::steady_clock::now() + kExitGrace;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) return;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  kill(-pid_, SIGKILL);
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

json PeerProcess::call_encoded(const json& message, int fd, std::chrono::milliseconds timeout) {
  ipc::send_message(socket_.get(), message.dump(), fd);
  ipc::Message m;
  try {
    m = ipc::receive_message(socket_.get(), timeout);
  } catch (const ipc::TransportTimeout& e) {
    throw ipc::TransportTimeout(std::string("the other process did not answer: ") + e.what());
  }
  json body;
  try {
    body = PeerChannel::parse(m.text);
  } catch (const peer::ProtocolError& e) {
    throw ipc::TransportError(std::string("the other process sent something that is ") + e.what());
  }
  last_not_supported_ = body.value("not_supported", false);
  if (body.contains("error")) throw ipc::TransportError("in the other process: " + body.at("error").get<std::string>());
  return body;
}

bool PeerChannel::is_socket(int fd) {
  struct stat st {};
  return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

PeerChannel::Message PeerChannel::next() {
  ipc::Message m = ipc::receive_message(socket_, std::chrono::hours(24));
  return {std::move(m.text), std::move(m.fd)};
}

json PeerChannel::parse(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw peer::ProtocolError(std::string("not JSON: ") + e.what());
  }
}

void PeerChannel::reply(const json& body) { ipc::send_message(socket_, body.dump()); }

}  // namespace vmmcheck::run
