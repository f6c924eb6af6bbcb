# cmake -DGIT=... -DSOURCE=... -DGIVEN=... -DOUT=... -P WriteGitSha.cmake (cmake/GitSha.cmake runs it at
# every build): writes OUT, a header defining VMMCHECK_GIT_SHA, only when its text would change, so that
# nothing recompiles for an unchanged commit.
set(sha "${GIVEN}")
if(sha STREQUAL "unknown" AND GIT)
  execute_process(COMMAND ${GIT} rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE}
    OUTPUT_VARIABLE head RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0 AND head)
    set(sha "${head}")
    # Tracked files changed since that commit: the results come from a tree no commit holds.
    execute_process(COMMAND ${GIT} diff --quiet HEAD -- . WORKING_DIRECTORY ${SOURCE} RESULT_VARIABLE dirty ERROR_QUIET)
    if(dirty EQUAL 1)
      set(sha "${sha}-dirty")
    endif()
  endif()
endif()
set(text "// Written by cmake/WriteGitSha.cmake at build time.\n#define VMMCHECK_GIT_SHA \"${sha}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
