#pragma once
// The axis vocabulary: one enum per concept a case table can name, shared by the harness (loader,
// oracle, runners) and the kernels. Each enum has exactly one spelling per value in case tables, its
// token; tokens are read only by the parsing layer (harness/model/registry.cpp), which refuses an
// unknown one with file:line. Plain C++17, no device code: nvcc and the host compiler both read it.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace vmmcheck::patterns {

template <typename E>
struct Word {
  E value;
  std::string_view token;
};

// Specialised once per enum below: `words` lists every value with its token, in declaration order.
template <typename E>
struct Vocabulary;

// Which view of the allocation an access goes through (docs/design.md, "Alias sets").
enum class View : int {
  Same,    // view A, the writer's own address
  Alias,   // a second mapping of the whole allocation
  Offset,  // a mapping placed one granularity into a larger reserved range
};
template <>
struct Vocabulary<View> {
  static constexpr std::array<Word<View>, 3> words{{{View::Same, "same"}, {View::Alias, "alias"}, {View::Offset, "offset"}}};
};

// The PTX flavour of a load.
enum class Load : int {
  Weak,         // ld.global
  Volatile,     // ld.volatile.global
  RelaxedGpu,   // ld.relaxed.gpu.global
  AcquireGpu,   // ld.acquire.gpu.global
  NonCoherent,  // ld.global.nc
};
template <>
struct Vocabulary<Load> {
  static constexpr std::array<Word<Load>, 5> words{{{Load::Weak, "weak"},
                                                    {Load::Volatile, "volatile"},
                                                    {Load::RelaxedGpu, "relaxed_gpu"},
                                                    {Load::AcquireGpu, "acquire_gpu"},
                                                    {Load::NonCoherent, "nc"}}};
};

// The scope of a strong operation (release, acquire, atomic).
enum class Scope : int { Cta, Gpu, Sys };
template <>
struct Vocabulary<Scope> {
  static constexpr std::array<Word<Scope>, 3> words{{{Scope::Cta, "cta"}, {Scope::Gpu, "gpu"}, {Scope::Sys, "sys"}}};
};

// Whether one thread's write and its later read are separated by fence.proxy.alias.
enum class Fence : int { None, ProxyAlias };
template <>
struct Vocabulary<Fence> {
  static constexpr std::array<Word<Fence>, 2> words{{{Fence::None, "none"}, {Fence::ProxyAlias, "proxy_alias"}}};
};

// Where fence.proxy.alias stands in message passing: the writer's side, the reader's, both, neither.
enum class FencePlacement : int { None, Writer, Reader, Both };
template <>
struct Vocabulary<FencePlacement> {
  static constexpr std::array<Word<FencePlacement>, 4> words{{{FencePlacement::None, "none"},
                                                              {FencePlacement::Writer, "writer"},
                                                              {FencePlacement::Reader, "reader"},
                                                              {FencePlacement::Both, "both"}}};
};

// The device operation that writes.
enum class WriterOp : int { Kernel, Memcpy, Memset };
template <>
struct Vocabulary<WriterOp> {
  static constexpr std::array<Word<WriterOp>, 3> words{
      {{WriterOp::Kernel, "kernel"}, {WriterOp::Memcpy, "memcpy"}, {WriterOp::Memset, "memset"}}};
};

// The device operation that reads.
enum class ReaderOp : int { Kernel, KernelNc, Memcpy };
template <>
struct Vocabulary<ReaderOp> {
  static constexpr std::array<Word<ReaderOp>, 3> words{
      {{ReaderOp::Kernel, "kernel"}, {ReaderOp::KernelNc, "kernel_nc"}, {ReaderOp::Memcpy, "memcpy"}}};
};

// What orders a reading operation after a writing one.
enum class Order : int { Stream, Event, Host, Graph, None };
template <>
struct Vocabulary<Order> {
  static constexpr std::array<Word<Order>, 5> words{{{Order::Stream, "stream"},
                                                     {Order::Event, "event"},
                                                     {Order::Host, "host"},
                                                     {Order::Graph, "graph"},
                                                     {Order::None, "none"}}};
};

// Who tells a resident grid that the writer completed; None: nobody, the grid reads at once.
enum class Signal : int { Kernel, Host, None };
template <>
struct Vocabulary<Signal> {
  static constexpr std::array<Word<Signal>, 3> words{
      {{Signal::Kernel, "kernel"}, {Signal::Host, "host"}, {Signal::None, "none"}}};
};

// How a flag is published and observed in message passing.
enum class FlagSync : int {
  ReleaseAcquire,  // st.release / ld.acquire at the case's scope
  Relaxed,         // st.relaxed / ld.relaxed at the same scope: no synchronisation
};
template <>
struct Vocabulary<FlagSync> {
  static constexpr std::array<Word<FlagSync>, 2> words{
      {{FlagSync::ReleaseAcquire, "release_acquire"}, {FlagSync::Relaxed, "relaxed"}}};
};


// What touches the memory between the write under test and the check that reads it back.
enum class Interference : int {
  None,       // nothing
  Overwrite,  // a kernel overwrites it with other data (a control: the check must see that)
};
template <>
struct Vocabulary<Interference> {
  static constexpr std::array<Word<Interference>, 2> words{
      {{Interference::None, "none"}, {Interference::Overwrite, "overwrite"}}};
};

// The access granted to a mapping before the access under test (cuMemSetAccess).
enum class Grant : int { None, Read, ReadWrite, ReadAfterRw, SubrangeInside, SubrangeOutside };
template <>
struct Vocabulary<Grant> {
  static constexpr std::array<Word<Grant>, 6> words{{{Grant::None, "none"},
                                                     {Grant::Read, "read"},
                                                     {Grant::ReadWrite, "readwrite"},
                                                     {Grant::ReadAfterRw, "read_after_rw"},
                                                     {Grant::SubrangeInside, "subrange_inside"},
                                                     {Grant::SubrangeOutside, "subrange_outside"}}};
};

// What a kernel does with the memory under test.
enum class AccessOp : int { Read, Write };
template <>
struct Vocabulary<AccessOp> {
  static constexpr std::array<Word<AccessOp>, 2> words{{{AccessOp::Read, "read"}, {AccessOp::Write, "write"}}};
};

// What happens to a handle, mapping or range between a write and the read that checks it.
enum class Scenario : int { ReleaseBeforeUnmap, RemapSameVa, RemapNewVa, Seam, Grow, RemapOtherAllocation, PartialMapping };
template <>
struct Vocabulary<Scenario> {
  static constexpr std::array<Word<Scenario>, 7> words{{{Scenario::ReleaseBeforeUnmap, "release_before_unmap"},
                                                        {Scenario::RemapSameVa, "remap_same_va"},
                                                        {Scenario::RemapNewVa, "remap_new_va"},
                                                        {Scenario::Seam, "seam"},
                                                        {Scenario::Grow, "grow"},
                                                        {Scenario::RemapOtherAllocation, "remap_other_allocation"},
                                                        {Scenario::PartialMapping, "partial_mapping"}}};
};

// Where a kernel that uses a mapping is when the host unmaps it.
enum class KernelState : int { Queued, Running };
template <>
struct Vocabulary<KernelState> {
  static constexpr std::array<Word<KernelState>, 2> words{{{KernelState::Queued, "queued"}, {KernelState::Running, "running"}}};
};

// The VMM call an api case makes (a misuse, or a documented query).
enum class ApiCall : int {
  SizeNotGranular,
  MapOverMapped,
  FreeMappedRange,
  SetAccessUnmapped,
  ExportWithoutType,
  ImportInvalidFd,
  DoubleRelease,
  Granularity,
  RetainThroughAlias,    // cuMemRetainAllocationHandle at an address of a second mapping: the same handle
  RetainUnmapped,        // cuMemRetainAllocationHandle at a reserved address with nothing mapped
  UnmapPartial,          // cuMemUnmap of half of one mapping
  UnmapWithHole,         // cuMemUnmap of a range holding a mapping and an unmapped granule
  MapNonzeroOffset,      // cuMemMap of an allocation from one granularity in
  GetAccess,             // cuMemGetAccess after cuMemSetAccess(READWRITE)
  AddressRangeStitched,  // cuMemGetAddressRange inside a range stitched from two allocations
  HostExportable,        // cuMemCreate of HOST memory with a POSIX file descriptor handle type
  SurfaceOverLinear,     // cuSurfObjectCreate over a VMM mapping as a LINEAR resource (surfaces take arrays only)
};
template <>
struct Vocabulary<ApiCall> {
  static constexpr std::array<Word<ApiCall>, 17> words{{{ApiCall::SizeNotGranular, "size_not_granular"},
                                                       {ApiCall::MapOverMapped, "map_over_mapped"},
                                                       {ApiCall::FreeMappedRange, "free_mapped_range"},
                                                       {ApiCall::SetAccessUnmapped, "set_access_unmapped"},
                                                       {ApiCall::ExportWithoutType, "export_without_type"},
                                                       {ApiCall::ImportInvalidFd, "import_invalid_fd"},
                                                       {ApiCall::DoubleRelease, "double_release"},
                                                       {ApiCall::Granularity, "granularity"},
                                                       {ApiCall::RetainThroughAlias, "retain_through_alias"},
                                                       {ApiCall::RetainUnmapped, "retain_unmapped"},
                                                       {ApiCall::UnmapPartial, "unmap_partial"},
                                                       {ApiCall::UnmapWithHole, "unmap_with_hole"},
                                                       {ApiCall::MapNonzeroOffset, "map_nonzero_offset"},
                                                       {ApiCall::GetAccess, "get_access"},
                                                       {ApiCall::AddressRangeStitched, "address_range_stitched"},
                                                       {ApiCall::HostExportable, "host_exportable"},
                                                       {ApiCall::SurfaceOverLinear, "surface_over_linear"}}};
};

// The multimem operation a multicast case makes through the multicast mapping.
enum class MulticastOp : int {
  Store,       // multimem.st through the multicast mapping; the unicast mapping is read
  Reduce,      // multimem.red.release.sys.add through the multicast mapping; ld.acquire.sys through the unicast one
  LoadReduce,  // st through the unicast mapping; multimem.ld_reduce.add through the multicast one
};
template <>
struct Vocabulary<MulticastOp> {
  static constexpr std::array<Word<MulticastOp>, 3> words{
      {{MulticastOp::Store, "st"}, {MulticastOp::Reduce, "red"}, {MulticastOp::LoadReduce, "ld_reduce"}}};
};

// The kind of physical memory behind the views (the alias families' optional `memory` axis): what the
// session's alias set is allocated as. Every alias rule applies to each (guide 4.17.5.1-4.17.5.3).
enum class Memory : int {
  Device,        // pinned device memory (cuMemCreate, CU_MEM_LOCATION_TYPE_DEVICE)
  Compressible,  // the same with allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC, checked as granted
  HostNuma,      // host memory of the GPU's NUMA node (CU_MEM_LOCATION_TYPE_HOST_NUMA)
};
template <>
struct Vocabulary<Memory> {
  static constexpr std::array<Word<Memory>, 3> words{
      {{Memory::Device, "device"}, {Memory::Compressible, "compressible"}, {Memory::HostNuma, "host_numa"}}};
};

// How a texture object reads the words (proxy.texture): a linear resource (tex1Dfetch), or the same
// words as a pitched 2D resource (tex2D).
enum class TexResource : int { Linear, Pitch2D };
template <>
struct Vocabulary<TexResource> {
  static constexpr std::array<Word<TexResource>, 2> words{{{TexResource::Linear, "linear"}, {TexResource::Pitch2D, "pitch2d"}}};
};

// Which way a bulk copy of the async proxy moves the words (proxy.async).
enum class AsyncDirection : int {
  GlobalToShared,  // cp.async.bulk global -> shared (mbarrier), of words generic stores wrote
  SharedToGlobal,  // cp.async.bulk shared -> global (bulk group), read back by generic loads
  TensorToShared,  // cp.async.bulk.tensor.2d global -> shared (a TMA tile load through a tensor map over the view)
};
template <>
struct Vocabulary<AsyncDirection> {
  static constexpr std::array<Word<AsyncDirection>, 3> words{{{AsyncDirection::GlobalToShared, "global_to_shared"},
                                                              {AsyncDirection::SharedToGlobal, "shared_to_global"},
                                                              {AsyncDirection::TensorToShared, "tensor_to_shared"}}};
};

// The proxy fences between the generic accesses and a bulk copy (proxy.async).
enum class ProxyFences : int {
  None,
  Alias,  // fence.proxy.alias
  Async,  // fence.proxy.async.global
  Both,   // both
};
template <>
struct Vocabulary<ProxyFences> {
  static constexpr std::array<Word<ProxyFences>, 4> words{
      {{ProxyFences::None, "none"}, {ProxyFences::Alias, "alias"}, {ProxyFences::Async, "async"}, {ProxyFences::Both, "both"}}};
};

// Where texture fetches stand against the generic stores they read (proxy.texture).
enum class TextureOrder : int {
  OneKernel,  // the same kernel: each thread fetches, stores, fetches again
  Stream,     // a later kernel in the same stream
  Event,      // a later kernel on another stream, after an event
  Host,       // a later kernel issued after the host waited for the stores
  Resident,   // a grid resident before the stores, told by the host after they completed
};
template <>
struct Vocabulary<TextureOrder> {
  static constexpr std::array<Word<TextureOrder>, 5> words{{{TextureOrder::OneKernel, "one_kernel"},
                                                            {TextureOrder::Stream, "stream"},
                                                            {TextureOrder::Event, "event"},
                                                            {TextureOrder::Host, "host"},
                                                            {TextureOrder::Resident, "resident"}}};
};

// What puts a CUDA array (a surface takes nothing else) over the bytes of a VMM allocation that is also
// mapped linearly (proxy.surface; harness/vmm/surface_alias.hpp).
enum class SurfaceBacking : int {
  Import,    // the allocation's exported POSIX descriptor imported as external memory, an array mapped from it
  ArrayMap,  // a sparse or deferred-mapping array mapped onto the allocation with cuMemMapArrayAsync
};
template <>
struct Vocabulary<SurfaceBacking> {
  static constexpr std::array<Word<SurfaceBacking>, 2> words{
      {{SurfaceBacking::Import, "import"}, {SurfaceBacking::ArrayMap, "array_map"}}};
};

// Which of the importing process's two mappings of an imported allocation a reader uses (ipc.*).
enum class ImportView : int { First, Second };
template <>
struct Vocabulary<ImportView> {
  static constexpr std::array<Word<ImportView>, 2> words{{{ImportView::First, "first"}, {ImportView::Second, "second"}}};
};

// What the exporting process keeps once the importer has mapped (ipc.*): its handle and the exported
// descriptor, or only its mapping (handle released, descriptor closed).
enum class Exporter : int { Holds, Released };
template <>
struct Vocabulary<Exporter> {
  static constexpr std::array<Word<Exporter>, 2> words{{{Exporter::Holds, "holds"}, {Exporter::Released, "released"}}};
};

// How an exported file descriptor reaches the importing process.
enum class Transport : int {
  ScmRights,  // sent over a Unix socket (SCM_RIGHTS)
  PidfdGetfd, // copied by the importer out of the exporter's descriptor table (pidfd_getfd, Linux 5.6)
};
template <>
struct Vocabulary<Transport> {
  static constexpr std::array<Word<Transport>, 2> words{
      {{Transport::ScmRights, "scm_rights"}, {Transport::PidfdGetfd, "pidfd_getfd"}}};
};

// How GPU 1 reaches memory that lives on GPU 0 (peer.access).
enum class PeerRoute : int {
  Granted,      // cuMemSetAccess grants GPU 1 on the mapping; a kernel on GPU 1 reads it
  NoGrant,      // GPU 0 alone is granted; a kernel on GPU 1 reads it
  PeerEnabled,  // cudaDeviceEnablePeerAccess(GPU 0) on GPU 1, and no VMM grant
  MemcpyPeer,   // cudaMemcpyPeer from GPU 0's VMM allocation into GPU 1's
  MemcpyUva,    // cudaMemcpy (cudaMemcpyDefault) between the same two
  Stitched,     // one reserved range: a chunk on each GPU, both granted to both; each GPU reads the other's
};
template <>
struct Vocabulary<PeerRoute> {
  static constexpr std::array<Word<PeerRoute>, 6> words{{{PeerRoute::Granted, "granted"},
                                                         {PeerRoute::NoGrant, "no_grant"},
                                                         {PeerRoute::PeerEnabled, "peer_enabled"},
                                                         {PeerRoute::MemcpyPeer, "memcpy_peer"},
                                                         {PeerRoute::MemcpyUva, "memcpy_uva"},
                                                         {PeerRoute::Stitched, "stitched"}}};
};

// Where an imported handle is imported: in the exporting process itself, or in another one.
enum class Importer : int { SameProcess, OtherProcess };
template <>
struct Vocabulary<Importer> {
  static constexpr std::array<Word<Importer>, 2> words{
      {{Importer::SameProcess, "same_process"}, {Importer::OtherProcess, "other_process"}}};
};

// How many processes share a multicast team: this one alone (every device it can team), or this one and
// a second vmmcheck process on another GPU, which joins through the exported object.
enum class TeamProcesses : int { One, Two };
template <>
struct Vocabulary<TeamProcesses> {
  static constexpr std::array<Word<TeamProcesses>, 2> words{{{TeamProcesses::One, "one"}, {TeamProcesses::Two, "two"}}};
};

// What a planted self-test case does (tests/planted/).
enum class Behaviour : int { Ok, Crash, Hang };
template <>
struct Vocabulary<Behaviour> {
  static constexpr std::array<Word<Behaviour>, 3> words{
      {{Behaviour::Ok, "ok"}, {Behaviour::Crash, "crash"}, {Behaviour::Hang, "hang"}}};
};

// The token of a value, as case tables spell it.
template <typename E>
constexpr std::string_view token(E value) {
  for (const Word<E>& w : Vocabulary<E>::words)
    if (w.value == value) return w.token;
  return {};
}

// The value a token names, or nothing: never a default.
template <typename E>
constexpr std::optional<E> from_token(std::string_view text) {
  for (const Word<E>& w : Vocabulary<E>::words)
    if (w.token == text) return w.value;
  return std::nullopt;
}

}  // namespace vmmcheck::patterns
