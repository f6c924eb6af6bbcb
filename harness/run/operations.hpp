#pragma once
// What the operation-level runners share: the write and the read are separate device operations, and
// every repetition writes values of its own over a settled region.
#include <cstdint>
#include <functional>
#include <string>

#include "run/session.hpp"

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
// or on `other` after the host waited for `writer`. Each order's mutant takes it away (run/mutants.hpp).
// Graph and None are the caller's: they are not one call after another.
void read_after(patterns::Order order, cudaStream_t writer, cudaStream_t other, cudaEvent_t handoff,
                const std::function<void(cudaStream_t)>& read);

// The `resident` order of the proxy families (proxy.texture, proxy.surface), as alias.resident has it:
// `reader(blocks, stream)` launches a grid of `blocks` = kernels::resident_blocks() on s.second() that
// counts itself into s.ready(), then waits for s.flag(); once every block is resident, `write(stream)`
// runs on s.work() and completes, and then the host raises the flag -- unless the no-resident-signal
// mutant takes it away. Throws when the grid is not resident within the budget's bound.
void write_while_resident(GpuSession& s, const std::function<void(int, cudaStream_t)>& reader,
                          const std::function<void(cudaStream_t)>& write);

// Sets the first `words` words of the region to `value` through view A and waits, so each repetition
// starts settled.
void reset_region(GpuSession& s, std::uint64_t words, std::uint32_t value);

}  // namespace vmmcheck::run
