#pragma once
// `vmmcheck run --mpi`, under mpirun: rank 0 runs the selected cases as any run does and writes the one
// results file; every other rank serves import sessions (run/ipc_peer.hpp) on a socket named for the
// job (ipc/rendezvous.hpp), on its own GPU. The ipc.* and fabric.* cases of rank 0 take rank 1 as
// their importing process, so the exported descriptor, the interprocess event and the fabric handle
// cross between MPI ranks -- on two GPUs where the node has them.
#include <functional>
#include <iosfwd>

#include "cli/options.hpp"

namespace vmmcheck::cli {

// Runs `run_cases` on rank 0 with the sessions pointed at rank 1; serves on the others. The exit code is
// rank 0's on rank 0, and 0 (or a failure of the rank's own) elsewhere. Without MPI support in this
// build: InputError saying so.
int run_with_mpi(const Options& o, std::ostream& out, std::ostream& err, const std::function<int()>& run_cases);

}  // namespace vmmcheck::cli
