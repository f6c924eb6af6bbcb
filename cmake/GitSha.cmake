# The git sha of the source tree goes into every JSON result's context block.
# A copy of the tree without .git (a GPU machine) can pass -DVMMCHECK_GIT_SHA=... instead.
set(VMMCHECK_GIT_SHA "unknown" CACHE STRING "git sha recorded in results (detected when empty or unknown)")
find_package(Git QUIET)
if(GIT_FOUND AND VMMCHECK_GIT_SHA STREQUAL "unknown")
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} OUTPUT_VARIABLE _sha RESULT_VARIABLE _rc
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_rc EQUAL 0 AND _sha)
    set(VMMCHECK_GIT_SHA "${_sha}" CACHE STRING "" FORCE)
  endif()
endif()
