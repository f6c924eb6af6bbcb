#pragma once
// What the oracle reads off a case (harness/model/oracle.cpp), never its verdict: for a memory-model
// pattern the litmus shape the PTX model decides (vocabulary/shape.hpp), for a VMM contract pattern its
// contract structure. Each pattern maps its typed definition to one of these in its header
// (structure_of), so the oracle knows no pattern by name.
#include <optional>
#include <string_view>

#include "vocabulary/shape.hpp"
#include "vocabulary/axes.hpp"

namespace vmmcheck::patterns {

// How a load flavour reads in the PTX memory model: ld.volatile is treated as ld.relaxed.sys (PTX
// ISA, "volatile" under ld; mixedproxy's parser does the same). ld.global.nc has no place in it: the
// memory consistency model does not apply to texture accesses, ld.global.nc included (PTX ISA 8.1).
struct Flavour {
  litmus::Sem sem;
  litmus::Level scope;
};
inline std::optional<Flavour> flavour_of(Load l) {
  switch (l) {
    case Load::Weak: return Flavour{litmus::Sem::Weak, litmus::Level::Thread};
    case Load::Volatile: return Flavour{litmus::Sem::Relaxed, litmus::Level::Sys};
    case Load::RelaxedGpu: return Flavour{litmus::Sem::Relaxed, litmus::Level::Gpu};
    case Load::AcquireGpu: return Flavour{litmus::Sem::Acquire, litmus::Level::Gpu};
    case Load::NonCoherent: return std::nullopt;
  }
  return std::nullopt;
}
inline litmus::Level level_of(Scope s) {
  return s == Scope::Cta ? litmus::Level::Cta : s == Scope::Gpu ? litmus::Level::Gpu : litmus::Level::Sys;
}
inline constexpr std::string_view kNcOutsideTheModel =
    "ld.global.nc is a texture-path load, and the PTX memory consistency model does not apply to it "
    "(PTX ISA 8.1): its verdict comes from the read-only-data rule, as cited";

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
