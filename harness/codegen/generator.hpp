#pragma once
// A litmus test as a CUDA kernel (docs/litmus.md, "Running a row"): one generated source per test, its
// threads placed, its addresses reached, its results written as harness/codegen/kernel_abi.h says.
#include <string>
#include <vector>

#include "vocabulary/shape.hpp"

namespace vmmcheck::codegen {

// A memory operation or fence of the test where the source asks for it: the line of its one asm
// statement. The kernel is compiled with line information, so each machine instruction names the source
// line it came from, and vmmcheck toolchain finds each operation's machine code by this line
// (docs/toolchain.md).
struct Site {
  unsigned thread = 0;           // Litmus::threads index
  unsigned index = 0;            // its place in the thread's program order (Thread::ops index)
  unsigned line = 0;             // 1-based line of Kernel::source
  std::string text;              // the litmus text, e.g. "ld.acquire.gpu r1, flag == 1"
  std::string ptx;               // the PTX instruction as emitted, e.g. "ld.acquire.gpu.u32"
  patterns::litmus::Op op;       // kind, sem, scope, proxy, address
  int location = -1;             // its memory word: a global location L, or 1000 + a shared one; -1: none (a fence)
  bool branches = false;         // its thread has branches or loops: ptxas lays its blocks out in an order of its own
};

// How a test's kernel is built: the choices of the stress parameters that change the kernel's code
// (run/records/stress_params.hpp says what each does and why its default is what the H200 showed).
struct Build {
  // Every GPU thread runs every litmus thread's program, each for an instance of its own (kernel_abi.h);
  // off, or where the test's spins wait on each other: one litmus thread a GPU thread.
  bool all_roles = true;
  // Lines warmed before a round: none; those the weak loads will read; those every load that can read a
  // stale value will read (every load but a spin's). A warming read orders nothing.
  enum class Warm { None, Weak, All } warm = Warm::All;
  // Locations of one writer keep one word across rounds, values tagged by round (kernel_abi.h).
  bool reuse_words = true;
  // Each store of a role (st, st.relaxed, st.release) waits for the values the role's earlier loads and
  // atomics returned: its address depends on them through VmmcheckLitmusLaunch::zero (a role with
  // branches is left as it is: a path may skip a load).
  bool loads_before_stores = false;
  // A store after a store of the same address, and a weak load after a load or store of it, go there
  // through an offset of VmmcheckLitmusLaunch::zero times a number of their own (a load after a load also
  // adds that load's value masked by zero), where nothing between keeps ptxas from merging, forwarding,
  // dropping or swapping them anyway and the model does not order them around it (generator.cpp,
  // distinct_ops): the machine code then holds the operations the row asks about (vmmcheck toolchain).
  bool distinct_addresses = true;
};
// The text that tells two builds apart, for a cache of generated kernels (RowEngine keys its kernels by
// test, mutant and this): every field of Build, so a field added there must be added here too.
std::string key_of(const Build& b);

struct Kernel {
  std::string name;                    // the extern "C" __global__ function's name
  std::string source;                  // CUDA C++ for NVRTC; includes "litmus_abi.h"
  // Where in `source` the kernel function starts: what comes before (comments, the include, helpers) is
  // the same text for every kernel, so several kernels compile as one program (codegen/nvrtc.hpp).
  std::size_t function_at = 0;
  std::vector<std::string> registers;  // the order of a result's words (VmmcheckLitmusLaunch::registers)
  unsigned file_ctas = 0;              // distinct CTAs the test names
  unsigned threads_per_file_cta = 0;   // the most threads any one of them has
  unsigned locations = 0;              // physical locations in global memory (region count)
  std::vector<int> location_of_address;  // per address: its global location L; -1 for .shared
  std::vector<bool> surface_locations;   // per L: a .surfref aliases it (a surface's memory, kernel_abi.h)
  std::vector<Site> sites;               // every memory operation and fence, by thread then program order
  Build build;                           // what it was asked to be built as
  bool all_roles = false;                // every role in every GPU thread (kernel_abi.h); false: one role a thread
  std::vector<int> role_order;           // all_roles: the order a GPU thread runs the litmus threads in
  std::vector<bool> reused_locations;    // per L: one word across rounds, values by round (kernel_abi.h)
  std::vector<std::uint32_t> initial_values;  // per L: what its words hold before each launch (kernel_abi.h)
  // Final values (Litmus::finals; kernel_abi.h, "Final values"): registers the kernel leaves alone, which
  // the host fills after each launch from each instance's word of location L, read through view[view].
  struct Final {
    unsigned reg = 0;
    int view = 0;
    int location = 0;
  };
  std::vector<Final> finals;
};

// The headers every generated kernel includes (harness/codegen/kernel_abi.h as "litmus_abi.h", and
// kernels/stress_ops.h), by the name it includes them under, with their text.
struct Header {
  const char* name;
  const char* text;
};
const std::vector<Header>& kernel_headers();

// Why `test` cannot run as a generated kernel on a GPU (empty: it can), e.g. a thread on a second GPU,
// the constant proxy, a proxy fence PTX has no instruction for.
std::string why_not_generated(const patterns::litmus::Litmus& test);

// The kernel for `test` (why_not_generated(test) must be empty; throws std::invalid_argument otherwise).
Kernel generate(const patterns::litmus::Litmus& test, const Build& build = {});

}  // namespace vmmcheck::codegen
