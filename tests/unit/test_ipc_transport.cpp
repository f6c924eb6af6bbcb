// The process transport of the ipc.* cases, without a GPU: messages and descriptors over a Unix socket
// (ipc/transport.hpp), pidfd_getfd, handles as hex, and the second vmmcheck process (run/kit/peer_process.hpp)
// started, spoken to, refused and reaped.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <thread>
#include <tuple>
#include <type_traits>

#include "ipc/rendezvous.hpp"
#include "ipc/transport.hpp"
#include "patterns/peer_registry.hpp"
#include "run/execution/peer_server.hpp"
#include "run/kit/fd_transports.hpp"
#include "run/kit/peer_process.hpp"
#include "run/kit/peer_protocol.hpp"

namespace vmmcheck::ipc {
namespace {

using namespace std::chrono_literals;

struct stat identity(int fd) {
  struct stat st {};
  EXPECT_EQ(fstat(fd, &st), 0);
  return st;
}

TEST(Transport, AMessageCarriesItsTextAndADescriptorForTheSameFile) {
  auto [a, b] = socket_pair();
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  const UniqueFd read_end(p[0]), write_end(p[1]);
  send_message(a.get(), "{\"op\":\"x\"}", write_end.get());
  send_message(a.get(), "second");
  Message m = receive_message(b.get(), 1s);
  EXPECT_EQ(m.text, "{\"op\":\"x\"}");
  ASSERT_TRUE(m.fd.held());
  EXPECT_NE(m.fd.get(), write_end.get());  // a descriptor of its own ...
  EXPECT_EQ(identity(m.fd.get()).st_ino, identity(write_end.get()).st_ino);  // ... for the same pipe
  ASSERT_EQ(write(m.fd.get(), "!", 1), 1);
  char ch = 0;
  ASSERT_EQ(read(read_end.get(), &ch, 1), 1);
  EXPECT_EQ(ch, '!');
  EXPECT_FALSE(receive_message(b.get(), 1s).fd.held());  // one message per send, no descriptor this time
}

TEST(Transport, NothingInTimeIsATimeoutAndAClosedPeerIsNot) {
  auto [a, b] = socket_pair();
  EXPECT_THROW(receive_message(b.get(), 30ms), TransportTimeout);
  a.reset();
  try {
    receive_message(b.get(), 1s);
    FAIL() << "a closed socket delivered a message";
  } catch (const TransportTimeout&) {
    FAIL() << "a closed socket is not a timeout";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("gone"), std::string::npos) << e.what();
  }
  EXPECT_THROW(send_message(b.get(), "anyone?"), TransportError);
}

TEST(Transport, HandlesRoundTripAsHexAndBadTextIsRefused) {
  unsigned char bytes[64];
  for (int i = 0; i < 64; ++i) bytes[i] = static_cast<unsigned char>(i * 37);
  const std::string text = to_hex(bytes, sizeof bytes);
  EXPECT_EQ(text.size(), 128u);
  unsigned char back[64] = {};
  from_hex(text, back, sizeof back);
  EXPECT_EQ(0, memcmp(bytes, back, sizeof bytes));
  EXPECT_THROW(from_hex(text.substr(2), back, sizeof back), TransportError);  // short
  EXPECT_THROW(from_hex(std::string(128, 'g'), back, sizeof back), TransportError);
}

TEST(Transport, PidfdGetfdCopiesADescriptorOrSaysWhyNot) {
  const UniqueFd file(::open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
  try {
    const UniqueFd copy = take_fd(getpid(), file.get());
    EXPECT_EQ(identity(copy.get()).st_ino, identity(file.get()).st_ino);
  } catch (const TransportError& e) {
    // Refused here (an old kernel, a seccomp filter): the error names the call and errno.
    EXPECT_NE(std::string(e.what()).find("pidfd_"), std::string::npos) << e.what();
  }
  try {
    take_fd(getpid(), 100000);  // no such descriptor
    FAIL() << "pidfd_getfd copied a descriptor that does not exist";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("EBADF"), std::string::npos) << e.what();
  }
}

class PeerProcessTest : public ::testing::Test {
 protected:
  void SetUp() override { setenv("VMMCHECK_PROGRAM", VMMCHECK_BINARY, 1); }
};

TEST_F(PeerProcessTest, TheOtherProcessReceivesADescriptorAndAnswers) {
  pid_t pid = -1;
  {
    run::PeerProcess peer(0);
    pid = peer.pid();
    const UniqueFd file(::open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
    const nlohmann::json got = peer.call(run::peer::FdIdentity{}, file.get(), 30s);
    EXPECT_EQ(got.at("ino").get<unsigned long long>(), identity(file.get()).st_ino);
    // A request whose descriptor never came is an error reply, and the process goes on answering.
    try {
      peer.call(run::peer::FdIdentity{}, -1, 30s);
      FAIL() << "a request without its descriptor was answered";
    } catch (const TransportError& e) {
      EXPECT_NE(std::string(e.what()).find("no file descriptor arrived"), std::string::npos) << e.what();
      EXPECT_FALSE(peer.last_not_supported());
    }
    EXPECT_EQ(peer.call(run::peer::FdIdentity{}, file.get(), 30s).at("ino"), got.at("ino"));
  }
  // The destructor asked it to exit and reaped it: no process, no zombie.
  EXPECT_EQ(kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

// Without a GPU the importer cannot start; with one, nothing is imported yet: an error reply either way.
TEST_F(PeerProcessTest, AReadBeforeAnImportIsAnErrorReply) {
  run::PeerProcess peer(0);
  try {
    peer.call(run::peer::Prime{0, 1}, -1, 60s);
    FAIL() << "a read before any import was answered";
  } catch (const TransportTimeout& e) {
    FAIL() << e.what();
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("in the other process"), std::string::npos) << e.what();
  }
}

TEST_F(PeerProcessTest, TheProbeReportsBothTransports) {
  const auto transports = run::probe_fd_transports();
  ASSERT_EQ(transports.size(), 2u);
  EXPECT_EQ(transports[0].first, "scm_rights");
  EXPECT_EQ(transports[0].second, "works");  // a Unix socket between parent and child always carries one
  EXPECT_EQ(transports[1].first, "pidfd_getfd");
  // Works, or names the refusal (EPERM without ptrace rights over the parent, ENOSYS before Linux 5.6).
  if (transports[1].second != "works")
    EXPECT_NE(transports[1].second.find("pidfd_"), std::string::npos) << transports[1].second;
}

// The server's side of a malformed request: whatever arrives -- not JSON, an unknown operation, a
// missing or mistyped field -- is answered with an error naming it, and the session goes on.
TEST(PeerServer, AnUnknownOrMalformedRequestIsAnErrorReplyAndTheSessionGoesOn) {
  auto [mine, theirs] = socket_pair();
  run::SessionEnd end = run::SessionEnd::Gone;
  std::thread server([&, socket = theirs.get()] { end = run::serve_session(socket, 0); });
  auto ask = [&](const std::string& text) {
    send_message(mine.get(), text);
    return nlohmann::json::parse(receive_message(mine.get(), 10s).text);
  };
  const std::pair<const char*, const char*> cases[] = {
      {"not json", "malformed request: not JSON"},
      {R"({"view": 0})", "malformed request: a request names no 'op'"},
      {R"({"op": "no_such_request"})", "malformed request: unknown request 'no_such_request'"},
      {R"({"op": "read", "view": 0, "new": 1, "old": 2})", "malformed request: read: missing 'words'"},
      {R"({"op": "prime", "view": "first", "words": 4})", "malformed request: prime: 'view' must be an integer"},
      {R"({"op": "import", "size": 4096, "transport": "carrier_pigeon"})",
       "malformed request: import: 'transport' has no value 'carrier_pigeon'"},
      {R"({"op": "check", "view": 0, "words": -1, "value": 1})",
       "malformed request: check: 'words' must be a non-negative integer"},
      // fields that depend on each other: refused while decoding, before any handler or GPU state
      {R"({"op": "import", "size": 4096, "transport": "pidfd_getfd"})",
       "malformed request: import: pidfd_getfd needs 'pid' and 'fd'"},
      {R"({"op": "fd_identity", "pid": 1})", "malformed request: fd_identity: 'pid' without 'fd'"},
  };
  for (const auto& [text, error] : cases) {
    const nlohmann::json reply = ask(text);
    ASSERT_TRUE(reply.contains("error")) << text << " -> " << reply.dump();
    EXPECT_NE(reply.at("error").get<std::string>().find(error), std::string::npos) << text << " -> " << reply.dump();
  }
  const UniqueFd file(::open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
  send_message(mine.get(), run::peer::encode(run::peer::FdIdentity{}).dump(), file.get());
  EXPECT_EQ(nlohmann::json::parse(receive_message(mine.get(), 10s).text).at("ino").get<unsigned long long>(),
            identity(file.get()).st_ino);
  send_message(mine.get(), run::peer::encode(run::peer::Exit{}).dump());
  server.join();
  EXPECT_EQ(end, run::SessionEnd::Exit);
}

// Every request survives the codec: what the client encodes is what the server decodes.
template <typename Q>
void expect_round_trip(const Q& request) {
  const nlohmann::json wire = run::peer::encode(request);
  EXPECT_EQ(wire.at("op").get<std::string>(), Q::kOp);
  EXPECT_EQ(run::peer::op_of(nlohmann::json::parse(wire.dump())), Q::kOp);
  const Q back = run::peer::decode<Q>(nlohmann::json::parse(wire.dump()));
  EXPECT_EQ(run::peer::encode(back), wire) << wire.dump();
}

template <typename Q, typename... S>
constexpr bool sampled(const std::tuple<S...>&) {
  return (std::is_same_v<Q, S> || ...);
}

TEST(PeerProtocol, EveryRequestRoundTrips) {
  namespace peer = run::peer;
  const auto samples = std::make_tuple(
      peer::Import{8 << 20, patterns::Transport::PidfdGetfd, 1234, 7},
      peer::Import{2 << 20, patterns::Transport::ScmRights, std::nullopt, std::nullopt},
      peer::ImportFabric{2 << 20, "00ff", false}, peer::OpenEvent{"abcdef"}, peer::AttachLatch{}, peer::Prime{1, 4096},
      peer::Read{1, 4096, 0x11, 0x22, true, 0x33}, peer::Read{0, 16, 1, 2, false, std::nullopt},
      peer::Check{0, 512, 0xfab1c001u}, peer::McJoin{2 << 20}, peer::McFill{1024, 5},
      peer::McSecond{1024, patterns::MulticastOp::Reduce, 9, true, 10}, peer::FdIdentity{}, peer::FdIdentity{42, 3},
      peer::BenchImport{2 << 20, 3, 10, 200, 0.5}, peer::Exit{}, peer::Shutdown{});
  // Every request the server knows (patterns/peer_registry.hpp) is sampled here.
  const auto expect_sampled = [&](auto q) { EXPECT_TRUE(sampled<decltype(q)>(samples)) << decltype(q)::kOp; };
  std::apply([&](auto... q) { (expect_sampled(q), ...); }, peer::Requests{});
  // ... and every type sampled is one the server knows, or the session's own.
  const auto expect_registered = [](const auto& q) {
    using Q = std::decay_t<decltype(q)>;
    const bool known = sampled<Q>(peer::Requests{}) || std::is_same_v<Q, peer::Exit> || std::is_same_v<Q, peer::Shutdown>;
    EXPECT_TRUE(known) << Q::kOp;
  };
  std::apply([&](const auto&... q) { (expect_registered(q), ...); }, samples);
  std::apply([](const auto&... q) { (expect_round_trip(q), ...); }, samples);

  EXPECT_THROW(peer::op_of(nlohmann::json::array()), peer::ProtocolError);
  // A number where a number belongs: a string there is the request's error, not a JSON library's.
  nlohmann::json wrong = peer::encode(peer::BenchImport{2 << 20, 3, 10, 200, 0.5});
  wrong["seconds"] = "half";
  EXPECT_THROW(peer::decode<peer::BenchImport>(wrong), peer::ProtocolError);
  // Left out: an optional field stays unset, a defaulted one keeps its default, a required one is an error.
  const auto read = peer::decode<peer::Read>({{"op", "read"}, {"view", 0}, {"words", 4u}, {"new", 1u}, {"old", 2u}});
  EXPECT_FALSE(read.raise.has_value());
  EXPECT_FALSE(read.wait_event);
  EXPECT_TRUE(peer::decode<peer::ImportFabric>({{"op", "import_fabric"}, {"size", 4096u}, {"handle", "00"}}).grant);
  EXPECT_THROW(peer::decode<peer::Check>({{"op", "check"}, {"view", 0}, {"value", 1u}}), peer::ProtocolError);
}

// What `run --mpi` does between ranks, in one process: sessions reach a server through the connector
// and a rendezvous socket instead of a child of their own; the server outlives each session.
TEST(Rendezvous, SessionsGoThroughTheConnectorToOneServer) {
  const std::string name = "unit-" + std::to_string(getpid());
  const UniqueFd listener = listen_at(name);
  EXPECT_THROW(listen_at(name), TransportError);  // one listener per name
  int sessions = 0;
  std::thread server([&] {
    for (;;) {
      const UniqueFd s = accept_one(listener.get(), 30s);
      ++sessions;
      if (run::serve_session(s.get(), 0) == run::SessionEnd::Shutdown) return;
    }
  });
  run::PeerProcess::set_connector([&] { return connect_to(name, 10s); });
  const UniqueFd file(::open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
  for (int i = 0; i < 2; ++i) {
    run::PeerProcess peer(0);
    EXPECT_EQ(peer.pid(), -1);  // no child: a session with the server
    EXPECT_EQ(peer.call(run::peer::FdIdentity{}, file.get(), 10s).at("ino").get<unsigned long long>(), identity(file.get()).st_ino);
  }
  run::PeerProcess::set_connector({});
  send_message(connect_to(name, 10s).get(), run::peer::encode(run::peer::Shutdown{}).dump());
  server.join();
  EXPECT_EQ(sessions, 3);  // two sessions, then the shutdown
  EXPECT_THROW(connect_to("unit-nobody-" + std::to_string(getpid()), 50ms), TransportTimeout);
}

}  // namespace
}  // namespace vmmcheck::ipc
