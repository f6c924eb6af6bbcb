#pragma once
// What the oracle reads off a case (harness/model/oracle.cpp): the structure of its accesses and what
// orders them, never its verdict. Each pattern maps its typed definition to one of these in its header
// (structure_of), so the oracle knows no pattern by name.
#include <string_view>

#include "patterns/vocabulary.hpp"

namespace vmmcheck::patterns {

// What orders the write before the read.
enum class Sync {
  ProgramOrder,       // one thread: the write precedes the read in program order
  ReleaseAcquire,     // two CTAs of one grid: release store / acquire load of a flag
  OperationBoundary,  // two device operations ordered by stream order, an event, host sync or a graph edge
  ResidentSignal,     // the reading grid was resident before the writing operation; a flag tells it later
  Atomicity,          // nothing orders them: read-modify-writes of one word from many threads must each be atomic
  None,               // nothing: the operations may run concurrently
};

// The structure of one write -> read pair.
struct AccessStructure {
  bool same_proxy = true;                 // read through the same virtual address the write used
  bool proxy_fence = false;               // a fence.proxy.alias lies on the path from the write to the read
  Load load = Load::Weak;                 // how the read is made
  bool write_in_reader_lifetime = false;  // the write happens while the reading kernel runs
  Sync sync = Sync::None;
  Scope scope = Scope::Gpu;               // ReleaseAcquire and Atomicity
  bool flag_same_proxy = true;            // ReleaseAcquire only: both flag accesses use one virtual address
  bool same_cta = false;                  // ReleaseAcquire only: writer and reader are threads of one CTA
};

// The VMM contract cases (access rights, lifecycle): what the device may do at the touched address,
// and whether the mapping outlives the access.
struct ContractStructure {
  bool granted = true;                  // some access is granted there to the device making the access
  bool write = false;                   // the access is a store
  bool write_permitted = true;          // the grant there is read-write
  bool mapping_outlives_access = true;  // no unmap while the accessing work is queued or running
  bool checks_words = false;            // the case checks every word it wrote ("intact"), not one access
  bool overwritten = false;             // something else writes the memory before the check reads it
};

// A pattern the oracle has no model of; `why` says where its verdicts come from instead.
struct NotModelled {
  std::string_view why;
};

}  // namespace vmmcheck::patterns
