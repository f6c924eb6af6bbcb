#pragma once
// Device faults: the CUDA errors after which a context is lost (a kernel faulted, trapped, or hit an
// illegal address). A case that expects a fault observes it through these; any other case that meets
// one has crashed, and its process cannot run another case.
#include <cuda_runtime_api.h>

#include <string>

namespace vmmcheck::run {

// True for the sticky errors: the context that saw one is unusable until the process exits.
bool is_device_fault(int cuda_error);

}  // namespace vmmcheck::run
