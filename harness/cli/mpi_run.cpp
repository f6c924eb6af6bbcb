#include "cli/mpi_run.hpp"

#include <unistd.h>

#include <chrono>
#include <ostream>
#include <string>

#include "cli/app.hpp"
#include "common/error.hpp"

#ifdef VMMCHECK_WITH_MPI
#include <cuda_runtime_api.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "ipc/rendezvous.hpp"
#include "ipc/transport.hpp"
#include "mpi/mpi_world.hpp"
#include "run/execution/peer_server.hpp"
#include "run/kit/peer_process.hpp"
#include "run/records/report_json.hpp"
#endif

namespace vmmcheck::cli {

#ifndef VMMCHECK_WITH_MPI

int run_with_mpi(const Options&, std::ostream&, std::ostream&, const RunCases&) {
  throw InputError("run --mpi: this vmmcheck was built without MPI (install an MPI, e.g. Debian's libopenmpi-dev, and rebuild)");
}

#else

namespace {

using namespace std::chrono_literals;
using nlohmann::ordered_json;

std::string hostname() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// A rank's GPU: the next ones after `first`, one per rank of the node.
int device_of(const mpi::World& w, int first) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return first + w.local_rank();  // no GPU here: never touched (every case is NotSupported)
  }
  return (first + w.local_rank()) % count;
}

// The job's exit code from every rank's: a failure anywhere, else a usage error, else nothing ran
// anywhere, else success.
int combined(const std::vector<std::string>& codes) {
  bool all_nothing = true, usage = false;
  for (const std::string& c : codes) {
    const int code = std::stoi(c);
    if (code == kExitFailure) return kExitFailure;
    usage = usage || code == kExitUsage;
    all_nothing = all_nothing && code == kExitNothingRunnable;
  }
  return usage ? kExitUsage : all_nothing ? kExitNothingRunnable : kExitOk;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int run_with_mpi(const Options& o, std::ostream& out, std::ostream& err, const RunCases& run_cases) {
  mpi::World w;
  const int rank = w.rank(), ranks = w.size(), next = (rank + 1) % ranks;
  // One name per job for the ranks' sockets: rank 0's pid and clock.
  const std::string job = w.broadcast(std::to_string(getpid()) + "-" +
                                      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const std::vector<std::string> hosts = w.allgather(hostname());
  bool one_node = ranks >= 2;
  for (int r = 0; r < ranks; ++r) one_node = one_node && hosts[static_cast<std::size_t>(r)] == hosts[0];
  if (!one_node) {
    if (rank == 0)
      err << "vmmcheck: run --mpi needs at least two ranks, all on one node (exported descriptors cross processes of "
          << "one node only); " << (ranks < 2 ? "this job has one rank" : "the ranks run on more than one node") << "\n";
    return kExitUsage;
  }
  auto socket_name = [&](int r) { return job + "-" + std::to_string(r); };
  const int device = device_of(w, o.device);

  // Serve the previous rank's import sessions on this rank's GPU, while this rank runs its own cases.
  const UniqueFd listener = ipc::listen_at(socket_name(rank));
  int served = 0;
  std::string server_error;
  std::thread server([&] {
    try {
      for (;;) {
        const UniqueFd session = ipc::accept_one(listener.get(), 24h);
        if (run::serve_session(session.get(), device) == run::SessionEnd::Shutdown) return;
        ++served;
      }
    } catch (const std::exception& e) {
      server_error = e.what();
    }
  });
  w.barrier();  // every rank listens

  run::PeerProcess::set_connector([name = socket_name(next)] { return ipc::connect_to(name, 30s); });
  Options mine = o;
  mine.device = device;
  const std::string rank_file = std::filesystem::temp_directory_path() / ("vmmcheck-" + job + "-rank" + std::to_string(rank) + ".json");
  if (rank != 0) {  // its results go to rank 0 through a file of its own; a resumed run resumes rank 0's
    mine.json = rank_file;
    mine.json_given = true;
    mine.rank_file = true;
    mine.resume.clear();
  } else {
    out << "mpi: " << ranks << " ranks on " << hosts[0] << "; each rank's ipc.* and fabric.* cases import through the next rank\n";
  }
  std::ostringstream quiet;  // the other ranks' console lines: their results go to rank 0
  int code = kExitFailure;
  try {
    code = run_cases(mine, rank == 0 ? out : quiet);
  } catch (const std::exception& e) {
    err << "vmmcheck: mpi rank " << rank << ": " << e.what() << "\n";
  }
  run::PeerProcess::set_connector({});

  w.barrier();  // every rank's cases are done: no session starts any more
  try {
    ipc::send_message(ipc::connect_to(socket_name(rank), 30s).get(), run::peer::encode(run::peer::Shutdown{}).dump());
  } catch (const std::exception& e) {
    err << "vmmcheck: mpi rank " << rank << " could not stop its server: " << e.what() << "\n";
  }
  server.join();
  if (!server_error.empty()) err << "vmmcheck: mpi rank " << rank << "'s server: " << server_error << "\n";

  // Rank 0 gathers every rank's results into its own file.
  const std::string mine_text = rank == 0 ? std::string() : read_file(rank_file);
  if (rank != 0) std::filesystem::remove(rank_file);
  const std::vector<std::string> docs = w.allgather(mine_text);
  const std::vector<std::string> codes = w.allgather(std::to_string(code));
  const std::vector<std::string> devices = w.allgather(std::to_string(device));
  const std::vector<std::string> sessions = w.allgather(std::to_string(served));
  if (rank == 0) {
    ordered_json ranks_json = ordered_json::array();
    for (int r = 1; r < ranks; ++r) {
      const std::string& text = docs[static_cast<std::size_t>(r)];
      if (text.empty()) {
        out << "mpi rank " << r << ": no results (exit " << codes[static_cast<std::size_t>(r)] << ")\n";
        continue;
      }
      const ordered_json d = ordered_json::parse(text);
      ranks_json.push_back({{"rank", r}, {"host", hosts[static_cast<std::size_t>(r)]},
                            {"device", std::stoi(devices[static_cast<std::size_t>(r)])}, {"totals", d.at("totals")},
                            {"results", d.at("results")}});
      out << "mpi rank " << r << " (GPU " << devices[static_cast<std::size_t>(r)] << ", importing through rank "
          << (r + 1) % ranks << "): " << d.at("totals").dump() << "\n";
    }
    for (int r = 0; r < ranks; ++r)
      out << "mpi rank " << r << ": served " << sessions[static_cast<std::size_t>(r)] << " import session(s) for rank "
          << (r + ranks - 1) % ranks << "\n";
    if (o.json_given && !o.json.empty() && std::filesystem::exists(o.json)) {
      ordered_json d = ordered_json::parse(read_file(o.json));
      d["ranks"] = ranks_json;
      run::write_results(o.json, d);
    }
  }
  w.barrier();
  return combined(codes);
}

#endif

}  // namespace vmmcheck::cli
