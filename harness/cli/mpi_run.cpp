#include "cli/mpi_run.hpp"

#include <unistd.h>

#include <chrono>
#include <ostream>
#include <string>

#include "common/error.hpp"

#ifdef VMMCHECK_WITH_MPI
#include <cuda_runtime_api.h>

#include "ipc/rendezvous.hpp"
#include "ipc/transport.hpp"
#include "mpi/mpi_world.hpp"
#include "run/ipc_peer.hpp"
#include "run/peer_process.hpp"
#endif

namespace vmmcheck::cli {

#ifndef VMMCHECK_WITH_MPI

int run_with_mpi(const Options&, std::ostream&, std::ostream&, const std::function<int()>&) {
  throw InputError("run --mpi: this vmmcheck was built without MPI (install an MPI, e.g. Debian's libopenmpi-dev, and rebuild)");
}

#else

namespace {

using namespace std::chrono_literals;

std::string hostname() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// The GPU of a serving rank: the next ones after rank 0's, one per rank of the node.
int device_of(const mpi::World& w, int first) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return first + w.local_rank();  // no GPU here: never touched unless a case asks
  }
  return (first + w.local_rank()) % count;
}

}  // namespace

int run_with_mpi(const Options& o, std::ostream& out, std::ostream& err, const std::function<int()>& run_cases) {
  mpi::World w;
  // One name per job for the ranks' sockets: rank 0's pid and clock.
  const std::string job = w.broadcast(std::to_string(getpid()) + "-" +
                                      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const std::vector<std::string> hosts = w.allgather(hostname());
  if (w.size() < 2 || hosts[1] != hosts[0]) {
    if (w.rank() == 0)
      err << "vmmcheck: run --mpi needs a second rank on rank 0's node (" << hosts[0] << "): exported descriptors "
          << "cross processes of one node only; " << (w.size() < 2 ? "this job has one rank" : "rank 1 runs on " + hosts[1]) << "\n";
    return 2;
  }
  auto socket_name = [&](int rank) { return job + "-" + std::to_string(rank); };

  if (w.rank() != 0) {
    const UniqueFd listener = ipc::listen_at(socket_name(w.rank()));
    w.barrier();  // listening
    const int device = device_of(w, o.device);
    int sessions = 0;
    for (;;) {
      const UniqueFd session = ipc::accept_one(listener.get(), 24h);
      ++sessions;
      if (run::serve_session(session.get(), device) == run::SessionEnd::Shutdown) break;
    }
    out << "mpi rank " << w.rank() << ": served " << sessions - 1 << " import session(s) on GPU " << device << "\n";
    w.barrier();  // everyone done
    return 0;
  }

  w.barrier();  // every serving rank listens
  out << "mpi: " << w.size() << " ranks on " << hosts[0] << "; rank 1 is the importing process of ipc.* and fabric.*\n";
  run::PeerProcess::set_connector([name = socket_name(1)] { return ipc::connect_to(name, 30s); });
  // However the run ends, the serving ranks are told to stop and everyone meets at the last barrier.
  auto shut_down = [&] {
    run::PeerProcess::set_connector({});
    for (int r = 1; r < w.size(); ++r) {
      try {
        ipc::send_message(ipc::connect_to(socket_name(r), 30s).get(), R"({"op":"shutdown"})");
      } catch (const std::exception& e) {
        err << "vmmcheck: mpi rank " << r << " could not be told to stop: " << e.what() << "\n";
      }
    }
    w.barrier();
  };
  int code = 1;
  try {
    code = run_cases();
  } catch (...) {
    shut_down();
    throw;
  }
  shut_down();
  return code;
}

#endif

}  // namespace vmmcheck::cli
