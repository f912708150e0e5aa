# SPDX-License-Identifier: BSD-3-Clause
# Runs one program under Oclgrind with data-race, uninitialized-value and
# API checks, its messages in a log; fails on a non-zero exit or on any line
# in the log.  -cl-opt-disable: Oclgrind 21.10's uninitialized-value plugin
# cannot interpret LLVM's `freeze`, which its optimizer emits.
#   cmake -DOCLGRIND=... -DLOG=... -DPROGRAM=... "-DARGS=a;b" -P oclgrind.cmake
file(REMOVE ${LOG})
execute_process(
  COMMAND ${OCLGRIND} --data-races --uninitialized --check-api --build-options -cl-opt-disable
          --log ${LOG} ${PROGRAM} ${ARGS}
  RESULT_VARIABLE rc)
set(report "")
if(EXISTS ${LOG})
  file(READ ${LOG} report)
endif()
if(NOT rc EQUAL 0 OR NOT report STREQUAL "")
  message(FATAL_ERROR "Oclgrind: exit status ${rc}; its report:\n${report}")
endif()
