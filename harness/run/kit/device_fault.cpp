#include "run/kit/device_fault.hpp"

#include "common/error.hpp"

namespace vmmcheck::run {

bool is_device_fault(int e) {
  // The runtime and driver share these numbers (e.g. CUDA_ERROR_ILLEGAL_ADDRESS == cudaErrorIllegalAddress).
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

}  // namespace vmmcheck::run
