#pragma once
// What the VMM-contract runners share: words written or read through a mapping under test by a kernel,
// brought back to the host and compared.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/cuda_objects.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::run {

class GpuSession;

inline std::uint32_t* words_at(CUdeviceptr address) { return reinterpret_cast<std::uint32_t*>(address); }

// A plain output buffer of `words` words, every byte 0xa5 (cudaMalloc may hand back memory that already
// holds the value a check expects, and a kernel that wrote nothing must show). The poison is written on
// `stream`, the stream of the kernel that fills the buffer: on the legacy default stream it would race
// with that kernel (the runners' streams are non-blocking), and overwrite what the kernel wrote.
DeviceBuffer<std::uint32_t> poisoned(std::uint64_t words, cudaStream_t stream);

// Fills `words` words at `address` with `value` by a kernel on `stream`, and waits.
void fill(CUdeviceptr address, std::uint64_t words, std::uint32_t value, cudaStream_t stream);

// The buffer's words, on the host, once the work queued on `stream` is done.
std::vector<std::uint32_t> to_host(const DeviceBuffer<std::uint32_t>& out, cudaStream_t stream);

// Reads `words` words through `address` with a kernel and returns them.
std::vector<std::uint32_t> read_back(CUdeviceptr address, std::uint64_t words, cudaStream_t stream);

// The bins of the contract patterns that read memory back (peer.access, fabric.handles), in their order.
constexpr int kCompleted = 0, kFault = 1, kWrong = 2;

// Counts whether `words` words hold `expected` into such a pattern's bins (completed, or wrong with the
// count in the reason).
void count_words(std::uint64_t right, std::uint64_t words, CaseResult& r);

// Copies `words` words at `address` with a kernel on `stream` into a poisoned buffer and counts them:
// a fault is the fault bin ("<what> faulted: ..."; the session is lost), else count_words.
void check_read(GpuSession& s, CUdeviceptr address, std::uint64_t words, std::uint32_t expected, cudaStream_t stream,
                const std::string& what, CaseResult& r);

// How many of words[begin, end) equal `expected`.
std::uint64_t matching(const std::vector<std::uint32_t>& words, std::size_t begin, std::size_t end, std::uint32_t expected);

}  // namespace vmmcheck::run
