#pragma once
// The oracle derives a case's expectation from its structure alone: which view each access uses, which
// agent performs it, and what orders the agents. It never reads the hand-written verdict; a CPU test
// checks that the two agree for every case, so each rule is stated twice, independently.
#include <string>
#include <vector>

#include "model/case.hpp"

namespace vmmcheck::model {

enum class Load { Weak, Volatile, Relaxed, Acquire, NonCoherent };
enum class Scope { Cta, Gpu, Sys };

// What orders the write before the read.
enum class Sync {
  ProgramOrder,       // one thread: the write precedes the read in program order
  ReleaseAcquire,     // two CTAs of one grid: release store / acquire load of a flag
  OperationBoundary,  // two device operations ordered by stream order, an event, host sync or a graph edge
  ResidentSignal,     // the reading grid was resident before the writing operation; a flag tells it later
  None,               // nothing: the operations may run concurrently
};

// The structure of one write -> read pair, as the oracle sees it.
struct AccessStructure {
  bool same_proxy = true;            // read through the same virtual address the write used
  bool proxy_fence = false;          // a fence.proxy.alias lies on the path from the write to the read
  Load load = Load::Weak;            // how the read is made
  bool write_in_reader_lifetime = false;  // the write happens while the reading kernel runs
  Sync sync = Sync::None;
  Scope scope = Scope::Gpu;          // ReleaseAcquire only
  bool flag_same_proxy = true;       // ReleaseAcquire only: both flag accesses use one virtual address
};

struct Derivation {
  Expectation expectation = Expectation::Undefined;
  std::vector<std::string> outcomes;  // allowed outcomes of a required case
  std::vector<std::string> steps;     // the rules applied, in order, for `explain`
};

// The structure of a case, read off its pattern and axis values.
AccessStructure structure_of(const Case& c);

Derivation derive(const AccessStructure& s);

// The VMM contract cases (access rights, lifecycle): what the device may do at the touched address,
// and whether the mapping outlives the access.
struct ContractStructure {
  bool granted = true;             // some access is granted there to the device making the access
  bool write = false;              // the access is a store
  bool write_permitted = true;     // the grant there is read-write
  bool mapping_outlives_access = true;  // no unmap while the accessing work is queued or running
  bool checks_words = false;       // the case checks every word it wrote ("intact"), not one access
};
ContractStructure contract_of(const Case& c);
Derivation derive(const ContractStructure& s);

// True for the patterns derive(const Case&) models. Not modelled: api cases, whose expected status
// can come only from the driver API documentation, which is cited in their verdicts.
bool oracle_models(const Case& c);
Derivation derive(const Case& c);

}  // namespace vmmcheck::model
