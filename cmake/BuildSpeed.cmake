# What keeps the build fast on a 2-core machine (issue 44: CI in 10 minutes, measured there).
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
