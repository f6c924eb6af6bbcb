#pragma once
// Small facts about a litmus test that the generator's checks (why_not.cpp), its layout (layout.cpp) and
// its emitter (generator.cpp) all ask. No GPU here.
#include <cstdint>
#include <string>

#include "vocabulary/op_kinds.hpp"
#include "vocabulary/shape.hpp"

namespace vmmcheck::codegen {

namespace lt = patterns::litmus;

inline constexpr unsigned kMaxBlockThreads = 1024;  // CUDA: threads per CTA
// PTX's named barriers 0..15; the kernel's rounds use 0 (__syncthreads), so litmus barrier k is k + 1.
inline constexpr std::uint32_t kMostBarrierIds = 15;

inline bool is_red(const lt::Op& op) { return op.kind == lt::OpKind::AtomAdd && op.reg.empty(); }
// A texture fetch through a .texref's texture object (ld.nc is a texture-proxy read too, but through the
// address's own view: Op::nc).
inline bool is_tld(const lt::Op& op) { return op.kind == lt::OpKind::Load && op.proxy == lt::Proxy::Texture && !op.nc; }

// Text for a // comment: one line, no control characters.
inline std::string one_line(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

inline std::string address_name(const lt::Litmus& l, int a) {
  if (a < 0 || a >= static_cast<int>(l.addresses.size())) return "<address " + std::to_string(a) + ">";
  return one_line(l.addresses[static_cast<std::size_t>(a)].name);
}

// The address whose virtual mapping an address's accesses go through: a virtual synonym
// (".texref t virtually aliases x") is x's own virtual address. -1: a same_as chain that leaves the
// declared addresses or loops.
inline int root_of(const lt::Litmus& l, int a) {
  const int n = static_cast<int>(l.addresses.size());
  for (int steps = 0; steps <= n; ++steps) {
    if (a < 0 || a >= n) return -1;
    const int next = l.addresses[static_cast<std::size_t>(a)].same_as;
    if (next < 0) return a;
    a = next;
  }
  return -1;
}

}  // namespace vmmcheck::codegen
