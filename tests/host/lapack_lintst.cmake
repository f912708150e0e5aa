# LAPACK's complex linear-equation tester (xlintstc / xlintstz from
# liblapack-test) on a representative subset of its paths -- LU (GE),
# Cholesky (PO), Hermitian indefinite (HE), triangular (TR), QR (QR) and
# least squares (LS), which call the Level-3 routines through blocked
# factorizations -- run twice: on the system BLAS alone, and with gpublas3
# preloaded (GPUBLAS3_CROSSOVER=0 in the test's environment: every call on
# the device).  The lines that report failures must be the same in both.
# The whole standard input takes minutes on PoCL; this subset keeps the
# blocked paths (block sizes 1, 3 and 20, sizes up to 50).
#   cmake -DTESTER=... -DINPUT=ztest.in -DLIB=libgpublas3.so -DWORK=dir -P
file(STRINGS ${INPUT} lines)
set(in "")
set(i 0)
foreach(line IN LISTS lines)
  # the 16 header lines, then the chosen paths
  if(i LESS 16 OR line MATCHES "^[CZ](GE|PO|HE|TR|QR|LS) ")
    string(APPEND in "${line}\n")
  endif()
  math(EXPR i "${i} + 1")
endforeach()
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/lintst.in "${in}")
foreach(run system gpublas3)
  if(run STREQUAL gpublas3)
    set(ENV{LD_PRELOAD} ${LIB})
  endif()
  execute_process(COMMAND ${TESTER} INPUT_FILE ${WORK}/lintst.in WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 900)
  unset(ENV{LD_PRELOAD})
  file(WRITE ${WORK}/${run}.out "${out}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "End of tests")
    message(FATAL_ERROR "${TESTER} on ${run} (exit ${rc}) did not finish:\n${out}\n${err}")
  endif()
  string(REGEX MATCHALL "[^\n]*(fail|FAIL)[^\n]*" bad_${run} "${out}")
  string(REGEX MATCHALL "passed the threshold" passed_${run} "${out}")
  list(LENGTH passed_${run} np_${run})
endforeach()
if(NOT "${bad_system}" STREQUAL "${bad_gpublas3}" OR NOT np_system EQUAL np_gpublas3)
  message(FATAL_ERROR "with gpublas3: ${np_gpublas3} paths passed and these failures:\n${bad_gpublas3}\n"
                      "system BLAS alone: ${np_system} passed and:\n${bad_system}")
endif()
message(STATUS "${TESTER}: ${np_gpublas3} paths passed the threshold, as on the system BLAS alone")
