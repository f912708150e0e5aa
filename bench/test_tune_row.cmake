# SPDX-License-Identifier: BSD-3-Clause
# ctest bench_tune_row: gpublas3-tune --class writes a row with its shape
# into a table written before the shape column existed, and the result is
# still a table lib/cmake/params.cmake reads: the old row as `any`, the new
# one with its class; the old table's other columns (TRSM's, the plan's)
# are kept, and the new row takes them from the device's `any` row.  And
# the candidates ran as themselves: the library takes each one's
# GPUBLAS3_PARAMS, TRSM and plan fields of 0 included, rather than
# ignoring it and timing the device's own row.
# Run as: cmake -DTUNE=path -DPARAMS=params.cmake -DDIR=scratch -P test_tune_row.cmake
file(MAKE_DIRECTORY ${DIR})
file(WRITE ${DIR}/old.csv "# a table of before the shape column\ndevice,precision,mwg,nwg,kwg,mdimc,ndimc,vwm,vwn,kwi,sa,sb,trsm_nb,skinny_max\nOldDevice,32,16,8,8,1,1,4,1,1,0,0,32,96\nOtherDevice,32,16,8,8,1,1,4,1,1,0,0,7,9\n")
execute_process(COMMAND ${TUNE} --device cpu --precision s --class medium --shapes 17x9x33,40x24x56
                        --budget 1 --no-copy --timeout 60 --match OldDevice --out ${DIR}/old.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpublas3-tune failed (${rc}):\n${log}")
endif()
if(log MATCHES "GPUBLAS3_PARAMS=[^\n]* ignored" OR NOT log MATCHES "GFLOP/s \\(err")
  message(FATAL_ERROR "the library did not run the tuner's candidates:\n${log}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DOUT=${DIR}/table.c -DTABLES=${DIR}/old.csv -P ${PARAMS}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "params.cmake refused the table: ${err}")
endif()
file(READ ${DIR}/table.c table)
foreach(want "G3_SHAPE_ANY, .match = \"OldDevice\", .precision = 32, .mwg = 16, .nwg = 8"
             "G3_SHAPE_MEDIUM, .match = \"OldDevice\", .precision = 32"
             "G3_SHAPE_ANY, .match = \"OtherDevice\", .precision = 32, .mwg = 16, .nwg = 8")
  string(FIND "${table}" "${want}" at)
  if(at LESS 0)
    message(FATAL_ERROR "the table lacks '${want}':\n${table}")
  endif()
endforeach()
string(REGEX MATCHALL "trsm_nb = 32, .skinny_max = 96," kept "${table}")
list(LENGTH kept nkept)
if(NOT nkept EQUAL 2 OR NOT table MATCHES "trsm_nb = 7, .skinny_max = 9,")
  message(FATAL_ERROR "the plan's columns were not kept (old row) or not inherited (new row):\n${table}")
endif()
# A row says what runs: a preference its set cannot take (swz with pad 4)
# is written as it takes effect, 0, so that the search does not time one
# kernel twice under two names either.
# (--no-copy: the row as given, nothing timed; downstream_tools runs the
# copy tuning itself)
execute_process(COMMAND ${TUNE} --device cpu --precision s --copy-only --no-copy --size 64 --final 64 --timeout 60
                        --match SwzDevice --out ${DIR}/swz.csv
                        --start "mwg=16,nwg=16,kwg=8,mdimc=4,ndimc=4,vwm=4,vwn=4,kwi=1,sa=1,sb=1,db=0,pad=4,swz=1"
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
file(STRINGS ${DIR}/swz.csv rows REGEX "^SwzDevice,")
if(NOT rc EQUAL 0 OR NOT rows MATCHES "^SwzDevice,32,any,16,16,8,4,4,4,4,1,1,1,0,4,0,0,0,0,0,")
  message(FATAL_ERROR "gpublas3-tune (${rc}) did not write swz as it takes effect: '${rows}'\n${log}")
endif()
