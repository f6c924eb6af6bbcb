#pragma once
// The kernel-launch toolkit, device side: one launch function for every kernel, which checks the launch
// and reports the caller's file:line (kernels/launch.hpp).
#include <utility>

#include "kernels/launch.hpp"

namespace vmmcheck::kernels {

// kernel<<<grid, block, 0, stream>>>(args...), then the launch check naming `name` and `where`.
template <typename... Params, typename... Args>
void launch(Where where, const char* name, void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
            Args&&... args) {
  kernel<<<grid, block, 0, stream>>>(std::forward<Args>(args)...);
  check_launch(name, where);
}

}  // namespace vmmcheck::kernels
