#pragma once
// The tool's version and the git commit it was built from; CMake passes both (harness/CMakeLists.txt).
#ifndef VMMCHECK_VERSION
#define VMMCHECK_VERSION "0.0.0"
#endif
#ifndef VMMCHECK_GIT_SHA
#define VMMCHECK_GIT_SHA "unknown"
#endif
