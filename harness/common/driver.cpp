#include "common/driver.hpp"

#include <cuda_runtime_api.h>

#include <mutex>
#include <string>

#include "common/error.hpp"

namespace vmmcheck {
namespace {

// The driver version the entry points are requested for. 12.0 has every call in the table.
constexpr int kEntryPointVersion = 12000;

const DriverApi* g_fake = nullptr;

DriverApi resolve_real_driver() {
  DriverApi api;
  std::string missing;
  auto resolve = [&](const char* symbol, void** slot) {
    if (!resolve_driver_entry_point(symbol, slot, kEntryPointVersion)) {
      if (!missing.empty()) missing += ", ";
      missing += symbol;
    }
  };
#define VMMCHECK_RESOLVE(name) resolve(#name, reinterpret_cast<void**>(&api.name));
  VMMCHECK_DRIVER_FUNCTIONS(VMMCHECK_RESOLVE)
#undef VMMCHECK_RESOLVE
  if (!missing.empty()) {
    throw NotSupportedError("no usable CUDA driver: cannot resolve " + missing);
  }
  return api;
}

}  // namespace

bool resolve_driver_entry_point(const char* symbol, void** slot, int version) {
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t err = cudaGetDriverEntryPointByVersion(symbol, slot, version, cudaEnableDefault, &status);
  if (err == cudaSuccess && status == cudaDriverEntryPointSuccess && *slot != nullptr) return true;
  *slot = nullptr;
  cudaGetLastError();  // clear the sticky-free error so later runtime calls start clean
  return false;
}

const DriverApi& driver() {
  if (g_fake) return *g_fake;
  static std::once_flag once;
  static DriverApi real;
  static std::string failure;
  std::call_once(once, [] {
    try {
      real = resolve_real_driver();
    } catch (const NotSupportedError& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw NotSupportedError(failure);
  return real;
}

void set_driver_for_testing(const DriverApi* fake) { g_fake = fake; }

const char* driver_error_name(int result) {
  const char* name = nullptr;
  try {
    const DriverApi& api = driver();
    if (api.cuGetErrorName && api.cuGetErrorName(static_cast<CUresult>(result), &name) == CUDA_SUCCESS &&
        name) {
      return name;
    }
  } catch (const NotSupportedError&) {
  }
  return "CUDA_ERROR (driver unavailable to name it)";
}

}  // namespace vmmcheck
