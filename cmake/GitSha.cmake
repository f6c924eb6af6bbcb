# The git sha of the source tree goes into every JSON result's context block. It is read at every build,
# not once at configure time (a sha cached from an older commit would tell a results file the wrong
# tree): the target vmmcheck_git_sha writes <build>/generated/vmmcheck_git_sha.h when the commit, or
# whether the tree has changes not committed ("-dirty"), differs from what it holds.
# A copy of the tree without .git (a GPU machine) can pass -DVMMCHECK_GIT_SHA=... instead: then that is it.
# A build folder configured before this read the sha once and cached it with no help text: read it again.
get_property(_help CACHE VMMCHECK_GIT_SHA PROPERTY HELPSTRING)
if(DEFINED CACHE{VMMCHECK_GIT_SHA} AND _help STREQUAL "")
  set(VMMCHECK_GIT_SHA "unknown" CACHE STRING "git sha recorded in results (read from git at every build when unknown)" FORCE)
endif()
set(VMMCHECK_GIT_SHA "unknown" CACHE STRING "git sha recorded in results (read from git at every build when unknown)")
set(VMMCHECK_GIT_SHA_DIR "${CMAKE_BINARY_DIR}/generated")
find_package(Git QUIET)
add_custom_target(vmmcheck_git_sha
  COMMAND ${CMAKE_COMMAND} -DGIT=${GIT_EXECUTABLE} -DSOURCE=${CMAKE_SOURCE_DIR} -DGIVEN=${VMMCHECK_GIT_SHA}
          -DOUT=${VMMCHECK_GIT_SHA_DIR}/vmmcheck_git_sha.h -P ${CMAKE_SOURCE_DIR}/cmake/WriteGitSha.cmake
  BYPRODUCTS ${VMMCHECK_GIT_SHA_DIR}/vmmcheck_git_sha.h
  COMMENT "vmmcheck: the git sha results will record"
  VERBATIM)
