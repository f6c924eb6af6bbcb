#pragma once
// The registry: every pattern vmmcheck can run, as the alternatives of one variant. A case's typed
// definition is one of them. Adding a pattern adds its header here (docs/adding-a-pattern.md); from
// this list the loader learns its name, axes and outcomes, the oracle its structure, and the session
// its runner -- all checked by the compiler, none dispatched by name.
#include <variant>

#include "patterns/access/definition.hpp"
#include "patterns/api/definition.hpp"
#include "patterns/async_copy/definition.hpp"
#include "patterns/fabric/definition.hpp"
#include "patterns/ipc/definition.hpp"
#include "patterns/kernel_pair/definition.hpp"
#include "patterns/lifecycle/definition.hpp"
#include "patterns/multicast/definition.hpp"
#include "patterns/peer_access/definition.hpp"
#include "patterns/peer_mp/definition.hpp"
#include "patterns/peer_pair/definition.hpp"
#include "patterns/planted/definition.hpp"
#include "patterns/resident/definition.hpp"
#include "patterns/surface/definition.hpp"
#include "patterns/texture/definition.hpp"
#include "patterns/unmap_in_use/definition.hpp"

namespace vmmcheck::patterns {

using CaseDef = std::variant<KernelPair, Resident, Access, Lifecycle, UnmapInUse,
                             Api, Multicast, Ipc, PeerPair, PeerMp, PeerAccess, Fabric, Texture, AsyncCopy, Surface,
                             PlantedHost, PlantedGpu>;

}  // namespace vmmcheck::patterns
