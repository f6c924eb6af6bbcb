#pragma once
// Histogram bins filled on the GPU. Their order matches the outcome lists in harness/model/patterns.cpp.
namespace vmmcheck::kernels {

constexpr int kMaxBins = 4;

// same_thread and message_passing
constexpr int kNew = 0;      // the read saw the write under test
constexpr int kStale = 1;    // the read saw an older value
constexpr int kTimeout = 2;  // message_passing: the bounded spin on the flag gave up

// kernel_pair and resident
constexpr int kOld = 1;          // the value from before the writing operation
constexpr int kOther = 2;        // neither value
constexpr int kResidentTimeout = 3;

}  // namespace vmmcheck::kernels
