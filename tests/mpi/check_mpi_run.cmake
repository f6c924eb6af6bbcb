# `mpirun -np 2 vmmcheck run --mpi` of the ipc and fabric families: both ranks run the cases (a ring: each
# imports through the next), rank 0 writes the one results file with its cases and rank 1's under
# "ranks", every rank's server is stopped, and the job ends (no rank left waiting).
# Without a GPU every case is NotSupported and the run exits 77, writing no results file; with one the
# cases run (exit 0 or 1).
file(REMOVE ${OUT})
execute_process(COMMAND ${MPIEXEC} -np 2 ${VMMCHECK} run --mpi --filter "ipc.*,fabric.*" --json ${OUT}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 240)
message(STATUS "exit ${rc}\n${out}\n${err}")
if(NOT rc MATCHES "^(0|1|77)$")
  message(FATAL_ERROR "run --mpi ended with '${rc}'")
endif()
foreach(expected "mpi: 2 ranks" "mpi rank 1 (GPU" "mpi rank 0: served" "mpi rank 1: served")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no '${expected}' in the output")
  endif()
endforeach()
# Without a GPU nothing ran: rank 0 writes no results file (it would replace whatever was there); rank 1's
# own file still reaches rank 0, which says what it held.
if(rc EQUAL 77)
  if(EXISTS ${OUT})
    message(FATAL_ERROR "a run that ran nothing wrote ${OUT}")
  endif()
  return()
endif()
file(READ ${OUT} results)
string(JSON cases LENGTH "${results}" results)
if(NOT cases EQUAL 15)
  message(FATAL_ERROR "the results file holds ${cases} cases, not the 15 of ipc.* and fabric.*")
endif()
string(JSON rank LENGTH "${results}" ranks)
string(JSON rank_cases LENGTH "${results}" ranks 0 results)
string(JSON which GET "${results}" ranks 0 rank)
if(NOT rank EQUAL 1 OR NOT rank_cases EQUAL 15 OR NOT which EQUAL 1)
  message(FATAL_ERROR "'ranks' should hold rank 1's 15 cases: ${rank} entries, ${rank_cases} cases, rank ${which}")
endif()
