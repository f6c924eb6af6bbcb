#pragma once
// The tool's version and the git commit it was built from: CMake passes the version
// (harness/CMakeLists.txt) and writes the commit into vmmcheck_git_sha.h at every build
// (cmake/GitSha.cmake; "-dirty" when the tree had changes no commit holds).
#ifndef VMMCHECK_VERSION
#define VMMCHECK_VERSION "0.0.0"
#endif
#if __has_include("vmmcheck_git_sha.h")
#include "vmmcheck_git_sha.h"
#endif
#ifndef VMMCHECK_GIT_SHA
#define VMMCHECK_GIT_SHA "unknown"
#endif
