# Runs one netlib Level-3 tester (xblat3c, xblat3z from libblas-test) with
# gpublas3 preloaded, so every routine it tests is our drop-in, and judges
# its summary: each routine must pass the error-exit and computational
# tests, and nothing may FAIL or be SUSPECT.  The TRSM line is switched off
# (no CTRSM/ZTRSM yet).  With NVALUES, the sizes become ones that cross the
# kernels' tiles (the testers' arrays hold at most 65).
#   cmake -DTESTER=... -DINPUT=...in -DPREC=c|z -DLIB=libgpublas3.so -DWORK=dir [-DNVALUES="2 17 33 65"] -P
string(TOUPPER ${PREC} P)
file(READ ${INPUT} in)
string(REGEX REPLACE "\n${P}TRSM  T" "\n${P}TRSM  F" in "${in}")
if(NVALUES)
  string(REGEX REPLACE " +" ";" nlist "${NVALUES}")
  list(LENGTH nlist count)
  string(REGEX REPLACE "\n[0-9]+ +NUMBER OF VALUES OF N\n[^\n]*VALUES OF N"
         "\n${count}                 NUMBER OF VALUES OF N\n${NVALUES}       VALUES OF N" in "${in}")
endif()
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/${PREC}blat3.in "${in}")
file(REMOVE ${WORK}/${PREC}blat3.out)
set(ENV{LD_PRELOAD} ${LIB})
execute_process(COMMAND ${TESTER} INPUT_FILE ${WORK}/${PREC}blat3.in WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
unset(ENV{LD_PRELOAD})
if(NOT EXISTS ${WORK}/${PREC}blat3.out)
  message(FATAL_ERROR "${TESTER} (exit ${rc}) wrote no summary:\n${out}\n${err}")
endif()
file(READ ${WORK}/${PREC}blat3.out summary)
string(REGEX MATCHALL "PASSED THE COMPUTATIONAL TESTS" computed "${summary}")
string(REGEX MATCHALL "PASSED THE TESTS OF ERROR-EXITS" exits "${summary}")
list(LENGTH computed nc)
list(LENGTH exits ne)
if(NOT rc EQUAL 0 OR NOT nc EQUAL 8 OR NOT ne EQUAL 8 OR summary MATCHES "FAIL|SUSPECT|FATAL")
  message(FATAL_ERROR "${TESTER} (exit ${rc}): ${nc} of 8 routines passed the computational tests, "
                      "${ne} of 8 the error exits:\n${summary}\n${err}")
endif()
message(STATUS "${TESTER}: 8 routines passed (TRSM not tested)")
