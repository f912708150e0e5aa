# SPDX-License-Identifier: BSD-3-Clause
# run(COMMAND...) for the test scripts run by `cmake -P`: runs a command,
# prints it and its output (stdout and stderr together), fails the script
# unless it succeeds, and leaves the output in OUT.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REPLACE ";" " " shown "${ARGN}")
  message("$ ${shown}\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "exit status ${rc}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()
