#pragma once
// The importing process of the ipc.* and fabric.* cases: `vmmcheck ipc-peer --device N`, started by
// PeerProcess (run/kit/peer_process.hpp) with its socket on descriptor 3. It imports what the parent
// exported, maps it twice, and runs readers on request; each request gets one reply.
//
// Requests (JSON, "op" names them):
//   import        {size, transport: "scm_rights" (descriptor attached) | "pidfd_getfd", pid, fd}
//   import_fabric {size, handle: hex of CUmemFabricHandle, grant: bool}
//   event         {handle: hex of cudaIpcEventHandle_t}      opens the parent's interprocess event
//   latch         {} with a memfd attached: the parent's latch page (run/kit/hold.hpp), mapped and pinned here
//   prime         {view, words}                              reads the words once (caches hold them)
//   read          {view, words, new, old, wait_event: bool, raise: token}
//                 counts new / old / other -> {bins: [..]}; after the event wait (wait_event), a kernel
//                 raises the latch with `raise` (when given) just before the counting kernel
//   check         {view, words, value}                       -> {right: n} or {fault: "..."}
//   mc_join       {size} with the multicast object's descriptor attached: join its team (vmm/multicast.hpp)
//   mc_fill       {words, value}                          fills this process's memory of the team
//   mc_second     {words, multimem_op, value, wait_event, raise}  the second access -> {bins: [..]}
//   fd_identity   {} with a descriptor attached, or {pid, fd}     -> {dev, ino}; needs no GPU
//   exit          ends the session; shutdown ends a rank's server (run/mpi_ranks.hpp)
// A failure is {"error": "..."}, with "not_supported": true when the environment lacks what was asked
// (pidfd_getfd refused, say).
namespace vmmcheck::run {

[[noreturn]] void run_ipc_peer(int device);

// One session on a connected socket: requests until "exit", "shutdown" or the other side going.
enum class SessionEnd { Exit, Shutdown, Gone };
SessionEnd serve_session(int socket, int device);

}  // namespace vmmcheck::run
