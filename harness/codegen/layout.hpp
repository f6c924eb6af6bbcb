#pragma once
// Where everything of a litmus test goes in its generated kernel (harness/codegen/kernel_abi.h): each
// litmus thread's file CTA b and file thread t, each address's location L (or shared word), the order of
// the result's registers, the order in which a GPU thread running every role runs them, and which
// locations keep one word across rounds. No GPU here.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codegen/generator.hpp"

namespace vmmcheck::codegen {

struct Layout {
  std::vector<int> file_cta;     // per litmus thread: its file CTA b (rank of Thread::cta)
  std::vector<int> file_thread;  // per litmus thread: t, its rank in b by (lane, declaration order)
  unsigned file_ctas = 0;
  unsigned threads_per_file_cta = 0;
  std::vector<int> root;          // per address: root_of
  std::vector<int> global_index;  // per address: L (rank of its location among the global ones); -1: shared
  std::vector<int> shared_index;  // per address: rank of its location among the shared ones; -1: global
  unsigned global_locations = 0;
  unsigned shared_locations = 0;
  std::vector<bool> surface_backed;    // per L: a .surfref aliases it (its words are texels, kernel_abi.h)
  std::vector<std::uint32_t> initial;  // per L: its value before the test (Address::initial)
  std::vector<std::string> registers;  // Kernel::registers: the loads' registers, then the final values'
  std::map<std::string, int> register_index;
  std::vector<int> finals;             // per final value (Litmus::finals, once each): its address
  // Every role in one GPU thread (Build::all_roles, and possible): the litmus threads in the order a GPU
  // thread runs them, each spinning role after the roles that write what it waits for. Empty: one role
  // per GPU thread.
  std::vector<int> role_order;
  std::vector<bool> reused;  // per L: one word across rounds, values tagged by round (Build::reuse_words)
};

Layout layout_of(const patterns::litmus::Litmus& test, const Build& build);

// The order in which one GPU thread can run every litmus thread without waiting on itself: a thread that
// spins (ld ... until v) after every thread that writes the location it spins on. Empty when the waits
// form a cycle (two threads each waiting for the other's store: the test must run one role a thread).
std::vector<int> role_order_of(const patterns::litmus::Litmus& test);

// Whether global location L can keep one word across rounds with its values tagged by round
// (kernel_abi.h, "Values by round"): written by plain generic stores of one litmus thread only, whose
// values fit VMMCHECK_LITMUS_VALUE_BITS; no thread spins on it; not a surface's memory. Why not, or empty.
std::string why_not_reused(const patterns::litmus::Litmus& test, const Layout& layout, int L);

}  // namespace vmmcheck::codegen
