# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds gpublas3 again in DIR with sanitizer FLAGS, only the
# TARGETS the sanitizer tests run (the library comes with them); run by the
# ctest fixtures rel_asan_build and rel_tsan_build.
#   cmake -DSRC=... -DDIR=... -DCC=... "-DFLAGS=..." "-DTARGETS=a;b" -P sanitized.cmake
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${DIR} -DCMAKE_C_COMPILER=${CC} -DCMAKE_BUILD_TYPE=RelWithDebInfo
          "-DCMAKE_C_FLAGS=${FLAGS}" -DGPUBLAS3_BENCH=OFF -DGPUBLAS3_SANITIZED=ON
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the sanitizer build in ${DIR} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${DIR} -j2 --target ${TARGETS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building ${TARGETS} with ${FLAGS} failed")
endif()
