# SPDX-License-Identifier: BSD-3-Clause
# Runs one netlib tester (EXE < INPUT, the input's lines edited first) with
# gpublas3 preloaded (LIB) and GPUBLAS3_CROSSOVER=0, in the folder WORK, and
# judges it.  EDIT: "regex=replacement" pairs separated by "@@"; the first
# pair whose regex matches a line replaces it, and a line replaced by
# nothing is dropped.  MODE blas: every routine tested must pass and
# nothing may be reported as failed or suspect; blas-host the same, run on
# the drop-ins' host loops (GPUBLAS3_DEVICE=host), which the check on
# stderr otherwise refuses.  MODE lapack: the summary
# lines (what passed, what failed, the error exits) must equal those of the
# same run on the system BLAS alone.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
string(REPLACE "@@" ";" edits "${EDIT}")
file(STRINGS ${INPUT} lines)
set(text "")
foreach(line IN LISTS lines)
  foreach(e IN LISTS edits)
    string(FIND "${e}" "=" at)
    string(SUBSTRING "${e}" 0 ${at} re)
    math(EXPR at "${at} + 1")
    string(SUBSTRING "${e}" ${at} -1 rep)
    if(line MATCHES "${re}")
      string(REGEX REPLACE "${re}" "${rep}" line "${line}")
      break()
    endif()
  endforeach()
  if(NOT line STREQUAL "")
    string(APPEND text "${line}\n")
  endif()
endforeach()
file(WRITE ${WORK}/input.in "${text}")

# Runs the tester in WORK/<dir>, preloading gpublas3 or not; out: stdout,
# stderr and any *.out file the tester wrote.
# POCL_MAX_PTHREAD_COUNT=1: their hundreds of thousands of tiny calls ran
# twice as fast on one PoCL worker as on two, four tests sharing 2 cores.
function(run dir preload out)
  set(env GPUBLAS3_CROSSOVER=0 POCL_MAX_PTHREAD_COUNT=1)
  if(preload)
    list(APPEND env LD_PRELOAD=${LIB})
  endif()
  file(MAKE_DIRECTORY ${WORK}/${dir})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${EXE} INPUT_FILE ${WORK}/input.in
                  WORKING_DIRECTORY ${WORK}/${dir} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  file(GLOB files ${WORK}/${dir}/*.out)
  foreach(f ${files})
    file(READ ${f} t)
    string(APPEND o "${t}")
  endforeach()
  file(WRITE ${WORK}/${dir}.log "${o}\n--- stderr ---\n${e}")
  set(refused "cannot be preloaded|will not run on|runs on")
  if(NOT MODE STREQUAL "blas-host")
    string(APPEND refused "|plain host loops")
  endif()
  if(NOT rc EQUAL 0 OR e MATCHES "${refused}")
    message(FATAL_ERROR "${EXE} (${dir}): exit ${rc}\n${e}\nlog: ${WORK}/${dir}.log")
  endif()
  set(${out} "${o}" PARENT_SCOPE)
endfunction()

# The lines that say what passed and what failed.
function(summary text out)
  string(REGEX MATCHALL "[^\n]*(threshold|error exits|FAIL|fail|SUSPECT|PASSED)[^\n]*" found "${text}")
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

run(gpublas3 1 got)
summary("${got}" ours)
string(REPLACE ";" "\n" shown "${ours}")
message("${shown}")
if(MODE MATCHES "^blas")
  if(got MATCHES "FAIL|SUSPECT|FATAL|\\*\\*\\*\\*" OR NOT got MATCHES "END OF TESTS"
     OR NOT got MATCHES "TRSM +PASSED THE COMPUTATIONAL TESTS")
    message(FATAL_ERROR "${EXE}: not every routine passed; log: ${WORK}/gpublas3.log")
  endif()
else()
  run(system 0 base)
  summary("${base}" theirs)
  if(NOT ours STREQUAL theirs OR NOT got MATCHES "End of tests")
    string(REPLACE ";" "\n" expected "${theirs}")
    message(FATAL_ERROR "${EXE}: the outcome differs from the system BLAS's:\n${expected}\n"
                        "logs: ${WORK}/gpublas3.log, ${WORK}/system.log")
  endif()
endif()
