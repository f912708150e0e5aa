# SPDX-License-Identifier: BSD-3-Clause
# ctest bench_user_rows: a row made by `gpublas3-tune --out user` serves
# the next process, no rebuild (lib/usertable.c), read from
# GPUBLAS3_TUNED_DIR, else $XDG_CONFIG_HOME/gpublas3, else
# ~/.config/gpublas3, before the built-in rows; a row that cannot be read
# is said and passed over.  The row is for the large class, forced on
# every call (GPUBLAS3_SHAPE), so that it outranks the built-in rows on any
# CPU: its match, the device's full name, is as specific as theirs.
# Run as: cmake -DTUNE=gpublas3-tune -DBENCH=gpublas3-bench -DDIR=scratch -P test_user_rows.cmake
# (no disk cache: on PoCL storing a binary compiles every kernel again, tests/reliability)
file(REMOVE_RECURSE ${DIR})
set(clean --unset=GPUBLAS3_TUNED_DIR --unset=XDG_CONFIG_HOME --unset=GPUBLAS3_PARAMS --unset=GPUBLAS3_PLAN
    GPUBLAS3_CACHE_DIR=off)

include(${CMAKE_CURRENT_LIST_DIR}/../tests/run.cmake)

# One checked GEMM on the large class's set, said by GPUBLAS3_VERBOSE.
function(bench_with)
  run(${CMAKE_COMMAND} -E env ${clean} ${ARGN} GPUBLAS3_VERBOSE=1 GPUBLAS3_SHAPE=large
      ${BENCH} --device cpu --shapes 40x24x56 --precisions s --peers gpublas3 --reps 1)
  if(NOT OUT MATCHES "1 passed, 0 FAILED")
    message(FATAL_ERROR "the bench's GEMM failed")
  endif()
  set(OUT "${OUT}" PARENT_SCOPE)
endfunction()

function(expect what)
  if(NOT OUT MATCHES "${what}")
    message(FATAL_ERROR "the output lacks '${what}'")
  endif()
endfunction()

# the tuner writes its row into the user's folder, making it
run(${CMAKE_COMMAND} -E env ${clean} GPUBLAS3_TUNED_DIR=${DIR}/tuned
    ${TUNE} --device cpu --precision s --class large --shapes 17x9x33,40x24x56 --budget 1 --no-copy --timeout 60
    --out user --start "mwg=16,nwg=8,kwg=8,mdimc=2,ndimc=1,vwm=8,vwn=4,kwi=4,sa=0,sb=0,db=0,pad=0,nfirst=1")
expect("wrote ${DIR}/tuned/tuned.csv row \"[^\n]*\",32,large")
file(READ ${DIR}/tuned/tuned.csv row)

# GPUBLAS3_TUNED_DIR, beside a file with a bad row; XDG's folder not read
file(WRITE ${DIR}/tuned/bad.csv "device,precision,mwg\nSomeDevice,33,16\n")
file(WRITE ${DIR}/xdg/gpublas3/xdg.csv "${row}")
bench_with(GPUBLAS3_TUNED_DIR=${DIR}/tuned XDG_CONFIG_HOME=${DIR}/xdg)
expect("tuned rows: ${DIR}/tuned/bad.csv:2 passed over: no device, or precision not 32 or 64")
expect("tuned rows: 1 from ${DIR}/tuned/tuned.csv")
expect("plan: sgemm-like M=40 N=24 K=56 [^\n]*large set \\(tuned.csv, ")
if(OUT MATCHES "xdg.csv")
  message(FATAL_ERROR "XDG_CONFIG_HOME's folder read though GPUBLAS3_TUNED_DIR is set")
endif()

# $XDG_CONFIG_HOME/gpublas3
bench_with(XDG_CONFIG_HOME=${DIR}/xdg HOME=${DIR}/home)
expect("plan: sgemm-like M=40 N=24 K=56 [^\n]*large set \\(xdg.csv, ")

# ~/.config/gpublas3
file(WRITE ${DIR}/home/.config/gpublas3/home.csv "${row}")
bench_with(HOME=${DIR}/home)
expect("plan: sgemm-like M=40 N=24 K=56 [^\n]*large set \\(home.csv, ")
