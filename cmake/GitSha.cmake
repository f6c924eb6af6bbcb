# The git sha of the source tree goes into every JSON result's context block.
find_package(Git QUIET)
set(VMMCHECK_GIT_SHA "unknown")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} OUTPUT_VARIABLE _sha RESULT_VARIABLE _rc
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_rc EQUAL 0 AND _sha)
    set(VMMCHECK_GIT_SHA "${_sha}")
  endif()
endif()
