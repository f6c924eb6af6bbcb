#pragma once
// What the operation-level runners share: the write and the read are separate device operations, and
// every repetition writes values of its own over a settled region.
#include <cstdint>
#include <functional>
#include <string>

#include "run/kit/hold.hpp"
#include "run/kit/session.hpp"

namespace vmmcheck::run {

struct Values {
  std::uint32_t old_value, new_value;
};

// Distinct, seeded old and new values per iteration, so nothing is left over from another case.
Values values_for(const Budget& b, const std::string& case_name, std::uint32_t iteration);

// The writing operation of an operation-level case, through `target` on `stream`: a fill kernel, a
// device-to-device copy from `copy_source` (which must hold `value`), or cuMemsetD32Async.
void write_words(patterns::WriterOp op, std::uint32_t* target, const std::uint32_t* copy_source, std::uint64_t words,
                 std::uint32_t value, cudaStream_t stream);

// After a writing operation queued on `writer`, the reading operation `read(stream)` in the order `order`
// says: on `writer` itself (stream order), or on `other` after an event `handoff` recorded on `writer`,
// or on `other` after the host waited for `writer`. Each order's mutant takes it away (run/kit/mutants.hpp).
// Graph and None are the caller's: they are not one call after another.
void read_after(patterns::Order order, cudaStream_t writer, cudaStream_t other, cudaEvent_t handoff,
                const std::function<void(cudaStream_t)>& read);

// The two sides of a proxy case (proxy.texture, proxy.surface), each as its own launch, and both in one.
struct ProxySides {
  std::function<void(cudaStream_t)> write;  // the stores
  std::function<void(cudaStream_t)> read;   // the counting reader
  // The reader as a grid of `blocks` that counts itself into s.ready(), waits (at most `timeout_ns`)
  // for s.flag(), then reads and counts.
  std::function<void(int blocks, std::uint64_t timeout_ns, cudaStream_t)> resident_read;
  std::function<void(cudaStream_t)> one_kernel;  // the stores and the reads in one kernel
};

// Runs one repetition of a proxy case in `order`:
//   Stream, Event, Host  write on s.work(), held (`hold`, with `token`) until the read starts, then the
//                        read after it as read_after() orders it;
//   Resident             as alias.resident has it: the reader grid (kernels::resident_blocks() blocks)
//                        on s.second() first; once every block is resident, the write on s.work(),
//                        which completes, and then the host raises the flag. Throws when the grid is
//                        not resident within the budget's bound;
//   OneKernel            one_kernel on s.work().
void run_in_order(GpuSession& s, patterns::TextureOrder order, const ProxySides& sides, Hold& hold, std::uint32_t token);

// Sets the first `words` words of the region to `value` through view A and waits, so each repetition
// starts settled.
void reset_region(GpuSession& s, std::uint64_t words, std::uint32_t value);

}  // namespace vmmcheck::run
