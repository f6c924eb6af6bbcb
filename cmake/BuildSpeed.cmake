# What keeps the build fast on a 2-core machine (issue 44: CI in 10 minutes, measured there).
#
# Unity builds: a target's files compiled eight to a translation unit, so the headers every file
# includes are read once for eight (the build took 40% less CPU). The price: two files of a target may
# not define one name at namespace scope twice, not even in anonymous namespaces (a helper both need
# goes in a header); -DCMAKE_UNITY_BUILD=OFF builds file by file.
if(NOT DEFINED CMAKE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
endif()
if(NOT DEFINED CMAKE_UNITY_BUILD_BATCH_SIZE)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()
#
# Precompiled headers: the heavy headers most files of a target include -- nlohmann/json for the
# harness, and gtest for the tests -- are parsed once a target instead of once a file. C++ files only:
# nvcc compiles a target's CUDA files without them.
function(vmmcheck_precompile target)
  target_precompile_headers(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:CXX>:<nlohmann/json.hpp$<ANGLE-R>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<filesystem$<ANGLE-R>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<map$<ANGLE-R>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<string$<ANGLE-R>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<vector$<ANGLE-R>>")
endfunction()

function(vmmcheck_precompile_tests target)
  vmmcheck_precompile(${target})
  target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:<gtest/gtest.h$<ANGLE-R>>")
endfunction()
