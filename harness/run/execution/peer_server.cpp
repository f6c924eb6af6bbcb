#include "run/execution/peer_server.hpp"

#include <signal.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>

#include "common/error.hpp"
#include "ipc/transport.hpp"
#include "common/driver.hpp"
#include "device/multicast_gate.hpp"
#include "kernels/contract.hpp"
#include "patterns/multicast/kernels.hpp"
#include "kernels/operations.hpp"
#include "run/kit/checked_words.hpp"
#include "common/cuda_objects.hpp"
#include "run/kit/device_fault.hpp"
#include "run/kit/devices.hpp"
#include "run/kit/hold.hpp"
#include "run/kit/peer_process.hpp"
#include "vmm/alias_set.hpp"
#include "vmm/multicast.hpp"

namespace vmmcheck::run {
namespace {

using nlohmann::json;

// The environment lacks what a request needs (the parent makes the case NotSupported).
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Importer {
 public:
  static bool handles(const std::string& op) {
    for (const char* known : {"import", "import_fabric", "event", "latch", "prime", "read", "check", "mc_join", "mc_fill", "mc_second"})
      if (op == known) return true;
    return false;
  }

  explicit Importer(int device) : device_(device) {
    CUDA_CHECK(cudaSetDevice(device));
    stream_ = Stream::create();
    sink_ = DeviceBuffer<std::uint32_t>(1);
    counts_.emplace(stream_);
  }

  // One request; the reply's body.
  json handle(const std::string& op, const json& q, UniqueFd fd) {
    if (op == "import") return import_fd(q, std::move(fd));
    if (op == "import_fabric") return import_fabric(q);
    if (op == "event") {
      cudaIpcEventHandle_t h{};
      ipc::from_hex(q.at("handle").get<std::string>(), &h, sizeof h);
      cudaEvent_t e = nullptr;
      CUDA_CHECK(cudaIpcOpenEventHandle(&e, h));
      event_ = Event(e);
      return {{"ok", true}};
    }
    if (op == "latch") {
      if (!fd.held()) throw std::runtime_error("latch: no file descriptor came with the request");
      latch_.emplace(SharedHostPage::attach(std::move(fd)));
      return {{"ok", true}};
    }
    if (op == "prime") {
      kernels::launch_prime(view(q), q.at("words").get<std::uint64_t>(), sink_.get(), stream_);
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      return {{"ok", true}};
    }
    if (op == "read") {
      return counted(q, [&] {
        kernels::launch_count(view(q), q.at("words").get<std::uint64_t>(), patterns::Load::Weak,
                              q.at("new").get<std::uint32_t>(), q.at("old").get<std::uint32_t>(), counts_->get(), stream_);
      });
    }
    if (op == "check") {
      const std::uint64_t words = q.at("words").get<std::uint64_t>();
      DeviceBuffer<std::uint32_t> out = poisoned(words, stream_);
      kernels::launch_copy_words(view(q), out.get(), words, stream_);
      const cudaError_t e = cudaStreamSynchronize(stream_);
      if (e != cudaSuccess && is_device_fault(e)) return {{"fault", cudaGetErrorName(e)}};
      CUDA_CHECK(e);
      return {{"right", matching(to_host(out, stream_), 0, words, q.at("value").get<std::uint32_t>())}};
    }
    if (op == "mc_join") return join_multicast(q, std::move(fd));
    if (op == "mc_fill") {
      if (!multicast_) throw std::runtime_error("mc_fill: no multicast team joined");
      fill(multicast_->uc.address(), q.at("words").get<std::uint64_t>(), q.at("value").get<std::uint32_t>(), stream_);
      return {{"ok", true}};
    }
    if (op == "mc_second") {
      if (!multicast_) throw std::runtime_error("mc_second: no multicast team joined");
      kernels::MulticastArgs a;
      a.multicast = words_at(multicast_->mc.address());
      a.unicast = words_at(multicast_->uc.address());
      a.count = q.at("words").get<std::uint64_t>();
      const auto mc_op = patterns::from_token<patterns::MulticastOp>(q.at("multimem_op").get<std::string>());
      if (!mc_op) throw std::runtime_error("mc_second: unknown multimem op");
      a.op = *mc_op;
      a.value = a.expect = q.at("value").get<std::uint32_t>();
      a.histogram = counts_->get();
      return counted(q, [&] { kernels::launch_multicast_second(a, stream_); });
    }
    throw std::runtime_error("unknown request '" + op + "'");
  }

 private:
  // A counting kernel `launch` queues on this process's stream: after the parent's interprocess event when
  // the request says wait_event, and after raising the shared latch with the request's "raise" token
  // when it has one (the parent's first access waits for it: run/kit/hold.hpp). The reply: its counts.
  json counted(const json& q, const std::function<void()>& launch) {
    if (q.value("wait_event", false)) {
      if (!event_.get()) throw std::runtime_error(q.value("op", std::string()) + ": no interprocess event was opened");
      CUDA_CHECK(cudaStreamWaitEvent(stream_, event_, 0));
    }
    if (q.contains("raise")) {
      if (!latch_) throw std::runtime_error(q.value("op", std::string()) + ": no latch page was shared");
      kernels::launch_mark(latch_->words(), q.at("raise").get<std::uint32_t>(), stream_);
    }
    launch();
    return {{"bins", json(counts_->take(stream_))}};
  }

  // This process's part of a multicast team another process created (vmm/multicast.hpp, join): its
  // memory bound to the object, the object and the memory mapped. Declared in the reverse of the release
  // order: unmap, unbind and release, release the memory, free the ranges.
  struct MulticastPart {
    vmm::AddressRange mc_range, uc_range;
    vmm::PhysicalAllocation memory;
    std::optional<vmm::MulticastTeam> team;
    vmm::Mapping mc, uc;
  };

  json join_multicast(const json& q, UniqueFd fd) {
    if (!fd.held()) throw std::runtime_error("mc_join: no file descriptor came with the request");
    int supported = 0;
    VMM_CHECK(driver().cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, device_));
    // The gate, asked again in this process: its environment is the parent's.
    const device::GateDecision gate = device::multicast_gate_from_environment(supported != 0, false);
    const std::size_t size = q.at("size").get<std::size_t>();
    const std::size_t g = vmm::allocation_granularity(device_, false);
    auto part = std::make_unique<MulticastPart>();
    part->mc_range = vmm::AddressRange(size, g);
    part->uc_range = vmm::AddressRange(size, g);
    part->memory = vmm::PhysicalAllocation(device_, size, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    part->team.emplace(vmm::MulticastTeam::join(gate, fd.get(), size, {device_, part->memory.handle()}));
    part->mc = vmm::Mapping(part->mc_range.base(), size, part->team->handle(), 0);
    vmm::AccessGrant(part->mc, device_, vmm::Access::ReadWrite);
    part->uc = vmm::Mapping(part->uc_range.base(), size, part->memory, 0);
    vmm::AccessGrant(part->uc, device_, vmm::Access::ReadWrite);
    multicast_ = std::move(part);
    return {{"ok", true}};
  }

  json import_fd(const json& q, UniqueFd fd) {
    if (q.at("transport").get<std::string>() == "pidfd_getfd") {
      try {
        fd = ipc::take_fd(q.at("pid").get<pid_t>(), q.at("fd").get<int>());
      } catch (const ipc::TransportError& e) {
        throw Unavailable(e.what());
      }
    }
    if (!fd.held()) throw std::runtime_error("import: no file descriptor came with the request");
    const std::size_t size = q.at("size").get<std::size_t>();
    // The import takes its own reference to the memory; the descriptor can go at once.
    vmm::PhysicalAllocation a = vmm::PhysicalAllocation::imported(
        reinterpret_cast<void*>(static_cast<std::uintptr_t>(fd.get())), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, size, device_);
    fd.reset();
    map(std::move(a), {vmm::ViewSpec{}, vmm::ViewSpec{}});
    return {{"ok", true}};
  }

  json import_fabric(const json& q) {
    CUmemFabricHandle h{};
    ipc::from_hex(q.at("handle").get<std::string>(), &h, sizeof h);
    vmm::PhysicalAllocation a =
        vmm::PhysicalAllocation::imported(&h, CU_MEM_HANDLE_TYPE_FABRIC, q.at("size").get<std::size_t>(), device_);
    // Without the grant the mapping exists but this device may not touch it (the control).
    vmm::ViewSpec v;
    if (!q.value("grant", true)) v.grant_to = std::vector<int>{};
    map(std::move(a), {v});
    return {{"ok", true}};
  }

  void map(vmm::PhysicalAllocation a, const std::vector<vmm::ViewSpec>& views) {
    imported_.emplace(std::move(a), vmm::allocation_granularity(device_, false), views);
  }

  std::uint32_t* view(const json& q) const {
    if (!imported_) throw std::runtime_error("nothing is imported yet");
    return words_at(imported_->view(q.at("view").get<std::size_t>()).address);
  }

  int device_;
  Stream stream_;
  DeviceBuffer<std::uint32_t> sink_;
  std::optional<HistogramBuffer> counts_;
  Event event_;
  std::optional<SharedHostPage> latch_;
  std::optional<vmm::AliasSet> imported_;
  std::unique_ptr<MulticastPart> multicast_;
};

// fd_identity: the descriptor that came with the request (SCM_RIGHTS), or, given pid and fd, the one
// copied out of that process (pidfd_getfd), named by device and inode. Needs no GPU (run/kit/fd_transports.hpp).
json fd_identity(const json& q, UniqueFd fd) {
  if (q.contains("pid")) {
    try {
      fd = ipc::take_fd(q.at("pid").get<pid_t>(), q.at("fd").get<int>());
    } catch (const ipc::TransportError& e) {
      throw Unavailable(e.what());
    }
  }
  struct stat st {};
  if (!fd.held() || fstat(fd.get(), &st) != 0) throw std::runtime_error("no file descriptor arrived");
  return {{"dev", static_cast<unsigned long long>(st.st_dev)}, {"ino", static_cast<unsigned long long>(st.st_ino)}};
}

}  // namespace

SessionEnd serve_session(int socket, int device) {
  PeerChannel channel(socket);
  std::optional<Importer> importer;  // made at the first request that needs the GPU
  for (;;) {
    PeerChannel::Request q;
    try {
      q = channel.next();
    } catch (const std::exception&) {
      return SessionEnd::Gone;  // the other side has gone: the session is over
    }
    const std::string op = q.body.value("op", std::string());
    if (op == "exit") return SessionEnd::Exit;
    if (op == "shutdown") return SessionEnd::Shutdown;
    json reply;
    try {
      if (op == "fd_identity") {
        reply = fd_identity(q.body, std::move(q.fd));
      } else if (!Importer::handles(op)) {
        throw std::runtime_error("unknown request '" + op + "'");
      } else {
        if (!importer) importer.emplace(device);
        reply = importer->handle(op, q.body, std::move(q.fd));
      }
    } catch (const Unavailable& e) {
      reply = {{"error", e.what()}, {"not_supported", true}};
    } catch (const std::exception& e) {
      reply = {{"error", e.what()}};
    }
    try {
      channel.reply(reply);
    } catch (const std::exception&) {
      return SessionEnd::Gone;
    }
  }
  // The importer unmaps and releases as the session ends: what a well-behaved importer does.
}

void run_ipc_peer(int device) {
  // Never outlives the case that started it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (!PeerChannel::is_socket(PeerProcess::kSocketFd)) {
    fprintf(stderr, "vmmcheck: ipc-peer: descriptor 3 is not a socket (this command is started by vmmcheck itself)\n");
    std::_Exit(2);
  }
  fcntl(PeerProcess::kSocketFd, F_SETFD, FD_CLOEXEC);
  serve_session(PeerProcess::kSocketFd, device);
  std::exit(0);
}

}  // namespace vmmcheck::run
