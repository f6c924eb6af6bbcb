# Every dependency is a well-kept library found through its CMake package config; on a fresh Debian
# machine ci/setup-deps.sh installs them. Nothing is downloaded at configure time, so an offline build
# works whenever the packages are present.
if(VMMCHECK_GPU)  # the CPU-only build (-DVMMCHECK_GPU=OFF) needs no CUDA toolkit
  find_package(CUDAToolkit 12.5 REQUIRED)   # cudaGetDriverEntryPointByVersion, libcu++ cuda::ptx
endif()
find_package(CLI11 2.1 CONFIG REQUIRED)
find_package(nlohmann_json 3.10 CONFIG REQUIRED)
find_package(tomlplusplus 3.3 CONFIG REQUIRED)
find_package(GTest 1.11 CONFIG REQUIRED)
find_package(Python3 3.9 COMPONENTS Interpreter)

# toml++ is used header-only: the binaries then carry no shared-library dependency on it, so a build
# made on one machine runs on a GPU machine that lacks the package.
add_library(vmmcheck_toml INTERFACE)
target_include_directories(vmmcheck_toml SYSTEM INTERFACE
  $<TARGET_PROPERTY:tomlplusplus::tomlplusplus,INTERFACE_INCLUDE_DIRECTORIES>)
target_compile_definitions(vmmcheck_toml INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)
