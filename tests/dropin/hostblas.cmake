# SPDX-License-Identifier: BSD-3-Clause
# The steps of the drop-in link tests (CMakeLists.txt says what each
# shows): cmake -DSTEP=<link|none|self|preload> -DFC=gfortran -DREADELF=readelf
# -DLIB=libgpublas3.so -DSRC=hostblas.f90 -DWORK=dir [-DREFBLAS=reference libblas.so.3]
# -P hostblas.cmake
cmake_minimum_required(VERSION 3.16)
get_filename_component(libdir ${LIB} DIRECTORY)
# the model decides (no threshold), with no variable of the caller's in the way
set(clean --unset=GPUBLAS3_CPU_BLAS --unset=GPUBLAS3_CROSSOVER --unset=GPUBLAS3_DEVICE --unset=LD_PRELOAD
    GPUBLAS3_VERBOSE=1)

include(${CMAKE_CURRENT_LIST_DIR}/../run.cmake)

function(expect what)
  if(NOT OUT MATCHES "${what}")
    message(FATAL_ERROR "the output lacks '${what}'")
  endif()
endfunction()

# The README's link line with the compiler's default flags.  Where those do
# not include --as-needed (Debian's do), it is added, so that the program
# is linked as on Debian: OpenBLAS dropped, no host BLAS in the process.
function(link_readme exe)
  run(${FC} ${SRC} -L${libdir} -lgpublas3 -lopenblas -o ${exe})
  run(${READELF} -d ${exe})
  if(OUT MATCHES "libopenblas")
    message("the default flags kept libopenblas: linking again with -Wl,--as-needed")
    run(${FC} ${SRC} -L${libdir} -Wl,--as-needed -lgpublas3 -lopenblas -o ${exe})
    run(${READELF} -d ${exe})
  endif()
  if(OUT MATCHES "libopenblas" OR NOT OUT MATCHES "libgpublas3")
    message(FATAL_ERROR "${exe} should need libgpublas3 and not libopenblas")
  endif()
endfunction()

set(exe ${WORK}/hostblas_linked)
if(STEP STREQUAL "link")
  link_readme(${exe})
  run(${CMAKE_COMMAND} -E env ${clean} LD_LIBRARY_PATH=${libdir} ${exe} 8)
  expect("host BLAS for small calls: [^\n]*libopenblas[^\n]* \\(libopenblas.so.0\\)")
  expect("DGEMM m=8 n=8 k=8 on the host BLAS [^\n]*libopenblas")
  expect("\nok")

elseif(STEP STREQUAL "none")
  link_readme(${exe}_none)
  run(${CMAKE_COMMAND} -E env ${clean} GPUBLAS3_CPU_BLAS=none LD_LIBRARY_PATH=${libdir} ${exe}_none 8)
  expect("host BLAS for small calls: none \\(GPUBLAS3_CPU_BLAS=none\\)")
  expect("DGEMM m=8 n=8 k=8 to the device")
  expect("\nok")

elseif(STEP STREQUAL "self")
  # gpublas3 first on the loader's path as libopenblas.so.0: passed over,
  # never its own host BLAS; the next soname, libblas.so.3, is taken (here
  # reference BLAS: Debian's OpenBLAS libblas.so.3 needs the real
  # libopenblas.so.0, which the link hides)
  link_readme(${exe}_self)
  file(REMOVE_RECURSE ${WORK}/self)
  file(MAKE_DIRECTORY ${WORK}/self)
  file(CREATE_LINK ${LIB} ${WORK}/self/libopenblas.so.0 SYMBOLIC)
  file(CREATE_LINK ${REFBLAS} ${WORK}/self/libblas.so.3 SYMBOLIC)
  run(${CMAKE_COMMAND} -E env ${clean} LD_LIBRARY_PATH=${WORK}/self:${libdir} ${exe}_self 8)
  expect("host BLAS for small calls: ${WORK}/self/libblas.so.3 \\(libblas.so.3\\)")
  expect("DGEMM m=8 n=8 k=8 on the host BLAS ${WORK}/self/libblas.so.3")
  expect("\nok")

elseif(STEP STREQUAL "preload")
  set(exe ${WORK}/hostblas_blas)
  run(${FC} ${SRC} -lblas -o ${exe})
  run(${CMAKE_COMMAND} -E env ${clean} GPUBLAS3_CROSSOVER=1e6 LD_PRELOAD=${LIB} ${exe} 8 160)
  expect("host BLAS for small calls: [^\n]*libblas.so.3 \\(the next library defining the same names\\)")
  expect("DGEMM m=8 n=8 k=8 on the host BLAS [^\n]*libblas.so.3")
  expect("DGEMM m=160 n=160 k=160 to the device")
  expect("\nok")

else()
  message(FATAL_ERROR "unknown step '${STEP}'")
endif()
