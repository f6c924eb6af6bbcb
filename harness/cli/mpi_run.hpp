#pragma once
// `vmmcheck run --mpi`, under mpirun: a ring. Every rank runs the selected cases on its own GPU (the
// next ones after --device, one per rank of the node), and every rank serves import sessions
// (run/execution/peer_server.hpp) on a socket named for the job and the rank (ipc/rendezvous.hpp), in a thread of its
// own, for the rank before it. The ipc.* and fabric.* cases of rank r take rank r + 1 (mod N) as their
// importing process: each rank maps its neighbour's allocation, and the exported descriptor, the
// interprocess event and the fabric handle cross between MPI ranks and GPUs. Rank 0 prints and writes
// the one results file: its own results, and every other rank's under "ranks".
#include <functional>
#include <iosfwd>

#include "cli/options.hpp"

namespace vmmcheck::cli {

// What runs a rank's cases: `run` with that rank's options (device, results file), printing to `out`.
using RunCases = std::function<int(const Options& options, std::ostream& out)>;

// The ring above. Every rank returns the job's exit code: a failure on any rank fails the job.
// Without MPI support in this build: InputError saying so.
int run_with_mpi(const Options& o, std::ostream& out, std::ostream& err, const RunCases& run_cases);

}  // namespace vmmcheck::cli
