#pragma once
// The second process of the cases that need one (ipc.*, fabric.handles.other_process,
// multicast.processes): `vmmcheck ipc-peer --device N`, started by PeerProcess
// (run/kit/peer_process.hpp) with its socket on descriptor 3, or an MPI rank serving import sessions
// (cli/mpi_run.hpp). Each request is decoded as the type patterns/peer_registry.hpp lists for its
// operation (the codec: run/kit/peer_protocol.hpp) and handed to that type's handler, declared beside
// the type and defined by what needs it; each gets one reply. A
// request that cannot be decoded -- not JSON, an unknown operation, a missing or mistyped field -- is
// answered with {"error": "malformed request: ..."}, and the session goes on.
namespace vmmcheck::run {

[[noreturn]] void run_ipc_peer(int device);

// One session on a connected socket: requests until "exit", "shutdown" or the other side going.
enum class SessionEnd { Exit, Shutdown, Gone };
SessionEnd serve_session(int socket, int device);

}  // namespace vmmcheck::run
