#pragma once
// The registry: every pattern vmmcheck can run, as the alternatives of one variant. A case's typed
// definition is one of them. Adding a pattern adds its header here (docs/adding-a-pattern.md); from
// this list the loader learns its name, axes and outcomes, the oracle its structure, and the session
// its runner -- all checked by the compiler, none dispatched by name.
#include <variant>

#include "patterns/access.hpp"
#include "patterns/api.hpp"
#include "patterns/async_copy.hpp"
#include "patterns/fabric.hpp"
#include "patterns/ipc.hpp"
#include "patterns/kernel_pair.hpp"
#include "patterns/lifecycle.hpp"
#include "patterns/message_passing.hpp"
#include "patterns/multicast.hpp"
#include "patterns/peer.hpp"
#include "patterns/planted.hpp"
#include "patterns/resident.hpp"
#include "patterns/rmw.hpp"
#include "patterns/same_thread.hpp"
#include "patterns/surface.hpp"
#include "patterns/texture.hpp"
#include "patterns/unmap_in_use.hpp"

namespace vmmcheck::patterns {

using CaseDef = std::variant<SameThread, MessagePassing, KernelPair, Resident, Rmw, Access, Lifecycle, UnmapInUse,
                             Api, Multicast, Ipc, PeerPair, PeerMp, PeerAccess, Fabric, Texture, AsyncCopy, Surface,
                             PlantedHost, PlantedGpu>;

}  // namespace vmmcheck::patterns
