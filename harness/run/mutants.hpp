#pragma once
// Mutants: run-time switches that take one ordering mechanism out of the runners, for `vmmcheck
// selftest` (docs/design.md, "Mutation self-test"). A suite that still passes every case with a
// mechanism removed could not have told whether the mechanism works: each mutant must be caught by at
// least one case. The switch is the environment variable VMMCHECK_MUTANT (hidden: not in --help), so an
// isolated child runs under the same mutant as its parent.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace vmmcheck::run {

enum class Mutant : int {
  NoProxyFence,      // fence.proxy.alias is not issued (alias.same_thread, alias.mp)
  RelaxedFlag,       // the flag is stored and loaded relaxed instead of release/acquire (alias.mp)
  NoStreamOrder,     // the reader of a stream-ordered pair runs on another stream (alias.kernels)
  NoEventWait,       // the reader's stream does not wait for the writer's event (alias.kernels)
  NoHostSync,        // the host does not synchronise with the writer before launching the reader (alias.kernels)
  NoGraphEdge,       // the graph's reader node does not depend on its writer node (alias.kernels)
  NoResidentSignal,  // the resident reader does not wait for its signal (alias.resident)
  PlainRmw,          // atom.add becomes a load and a store (alias.rmw)
  NoGrant,           // cuMemSetAccess is not called (access)
  FullGrant,         // every grant is read-write (access)
  StrayWrite,        // another kernel writes the memory before it is checked (lifecycle)
};

struct MutantInfo {
  Mutant mutant;
  std::string_view name;
  std::string_view removes;  // the ordering mechanism, or guarantee, it takes away
  std::string_view patterns; // the runners it lives in (patterns' kName, comma-separated)
};

inline constexpr std::array<MutantInfo, 11> kMutants{{
    {Mutant::NoProxyFence, "no-proxy-fence", "fence.proxy.alias", "same_thread,message_passing,peer_mp,texture,surface,async_copy"},
    {Mutant::RelaxedFlag, "relaxed-flag", "release/acquire on the flag", "message_passing,peer_mp"},
    {Mutant::NoStreamOrder, "no-stream-order", "stream order between writer and reader", "kernel_pair,texture,surface"},
    {Mutant::NoEventWait, "no-event-wait", "the reader's wait for the writer's event", "kernel_pair,ipc,peer_pair,texture,surface"},
    {Mutant::NoHostSync, "no-host-sync", "host synchronisation after the writer", "kernel_pair,ipc,peer_pair,texture,surface"},
    {Mutant::NoGraphEdge, "no-graph-edge", "the graph edge from writer to reader", "kernel_pair"},
    {Mutant::NoResidentSignal, "no-resident-signal", "the signal a resident reader waits for", "resident,texture,surface"},
    {Mutant::PlainRmw, "plain-rmw", "atomicity of atom.add", "rmw"},
    {Mutant::NoGrant, "no-grant", "cuMemSetAccess", "access,peer_access"},
    {Mutant::FullGrant, "full-grant", "the access right a grant leaves out", "access"},
    {Mutant::StrayWrite, "stray-write", "exclusive use of the memory until it is checked", "lifecycle"},
}};

inline constexpr const char* kMutantVariable = "VMMCHECK_MUTANT";

// The mutant named by VMMCHECK_MUTANT, if any; read on every call (selftest changes it between passes).
// An unknown name is an InputError naming the known ones.
std::optional<Mutant> active_mutant();
bool mutated(Mutant m);

std::optional<Mutant> mutant_named(std::string_view name);
std::string known_mutants();  // "no-proxy-fence, relaxed-flag, ...", for messages
std::string_view name_of(Mutant m);

}  // namespace vmmcheck::run
