# SPDX-License-Identifier: BSD-3-Clause
# The steps of the downstream proofs (see CMakeLists.txt), one per ctest
# test: cmake -DSTEP=<install|layout|pkgconfig|cmake|xerbla|fortran> ... -P.
# Programs run with LD_LIBRARY_PATH on the staging prefix, so they load the
# installed library, not the build tree's.
cmake_minimum_required(VERSION 3.16)

set(LIB ${STAGE}/${LIBDIR})
set(RUNENV ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${LIB} PKG_CONFIG_PATH=${LIB}/pkgconfig)

# Runs a command; fails the step with its output unless it succeeds.  The
# output is left in OUT.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE ";" " " shown "${ARGN}")
  message("$ ${shown}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "exit status ${rc}")
  endif()
  string(STRIP "${out}" out)
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

function(pkg_flags var)
  run(${RUNENV} ${PKG_CONFIG} ${ARGN})
  separate_arguments(flags UNIX_COMMAND "${OUT}")
  set(${var} ${flags} PARENT_SCOPE)
endfunction()

function(require_file f)
  if(NOT EXISTS ${STAGE}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endfunction()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE ${STAGE})
  set(config)
  if(CONFIG)
    set(config --config ${CONFIG})
  endif()
  run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${STAGE} ${config})

elseif(STEP STREQUAL "layout")
  string(REGEX MATCH "^[0-9]+" major "${VERSION}")
  foreach(f ${LIBDIR}/libgpublas3.so.${VERSION} ${LIBDIR}/libgpublas3.so.${major} ${LIBDIR}/libgpublas3.so
            ${INCLUDEDIR}/gpublas3.h ${INCLUDEDIR}/gpublas3_blas.h ${LIBDIR}/pkgconfig/gpublas3.pc
            ${LIBDIR}/cmake/gpublas3/gpublas3Config.cmake ${LIBDIR}/cmake/gpublas3/gpublas3ConfigVersion.cmake
            ${LIBDIR}/cmake/gpublas3/gpublas3Targets.cmake)
    require_file(${f})
  endforeach()
  if(NOT IS_SYMLINK ${LIB}/libgpublas3.so.${major} OR NOT IS_SYMLINK ${LIB}/libgpublas3.so)
    message(FATAL_ERROR "libgpublas3.so and libgpublas3.so.${major} should be links to the versioned file")
  endif()
  run(${READELF} -d ${LIB}/libgpublas3.so.${VERSION})
  if(NOT OUT MATCHES "SONAME\\)[^\n]*\\[libgpublas3\\.so\\.${major}\\]")
    message(FATAL_ERROR "SONAME is not libgpublas3.so.${major}")
  endif()
  if(OUT MATCHES "SYMBOLIC")
    message(FATAL_ERROR "built with -Bsymbolic: an application's xerbla_ could not replace the library's")
  endif()
  file(READ ${LIB}/pkgconfig/gpublas3.pc pc)
  # Requires, not Requires.private: gpublas3.h exposes OpenCL's types, so a
  # program that includes it links OpenCL too
  if(NOT pc MATCHES "\nRequires: OpenCL\n" OR NOT pc MATCHES "Version: ${VERSION}")
    message(FATAL_ERROR "gpublas3.pc lacks Requires: OpenCL or Version: ${VERSION}")
  endif()
  foreach(routine GEMM SYMM SYRK SYR2K TRMM TRSM HEMM HERK HER2K)
    if(NOT pc MATCHES "Description: [^\n]*${routine}[,;]")
      message(FATAL_ERROR "gpublas3.pc's Description does not name ${routine}")
    endif()
  endforeach()
  # Exported symbols: the public names and nothing else.
  run(${NM} -D --defined-only ${LIB}/libgpublas3.so.${VERSION})
  string(REGEX MATCHALL "[^\n]+" lines "${OUT}")
  set(public "^(gpublas3[A-Z][A-Za-z0-9]*|cblas_[sdcz](gemm|symm|syrk|syr2k|trmm|trsm)|cblas_[cz](hemm|herk|her2k)|cblas_xerbla|[sdcz](gemm|symm|syrk|syr2k|trmm|trsm)_|[cz](hemm|herk|her2k)_|xerbla_)$")
  set(count 0)
  foreach(line ${lines})
    string(REGEX REPLACE "^.* " "" sym "${line}")
    if(NOT sym MATCHES "${public}")
      message(FATAL_ERROR "exported but not public: ${sym}")
    endif()
    math(EXPR count "${count} + 1")
  endforeach()
  foreach(sym dgemm_ ssyr2k_ strmm_ xerbla_ cblas_dsymm cblas_strmm cblas_xerbla gpublas3Dgemm gpublas3Setup
          zgemm_ cher2k_ cblas_zherk gpublas3Zhemm gpublas3Ctrmm)
    if(NOT OUT MATCHES " ${sym}\n" AND NOT OUT MATCHES " ${sym}$")
      message(FATAL_ERROR "not exported: ${sym}")
    endif()
  endforeach()
  message("${count} exported symbols, all public")

elseif(STEP STREQUAL "pkgconfig")
  pkg_flags(version --modversion gpublas3)
  if(NOT version STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config says version ${version}, the project is ${VERSION}")
  endif()
  pkg_flags(flags --cflags --libs gpublas3)
  run(${CC} ${SRC}/consumer.c -o ${WORK}/consumer_pkgconfig ${flags})
  run(${RUNENV} ${WORK}/consumer_pkgconfig ${VERSION})

elseif(STEP STREQUAL "cmake")
  set(dir ${WORK}/cmake_consumer)
  file(REMOVE_RECURSE ${dir})
  run(${CMAKE_COMMAND} -S ${SRC}/cmake_consumer -B ${dir} -DCMAKE_PREFIX_PATH=${STAGE} -DCMAKE_C_COMPILER=${CC}
      -DEXPECTED_VERSION=${VERSION} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  run(${CMAKE_COMMAND} --build ${dir})
  run(${RUNENV} ${dir}/consumer ${VERSION})

elseif(STEP STREQUAL "xerbla")
  pkg_flags(flags --cflags --libs gpublas3 cmocka)
  run(${CC} ${TESTS}/host/test_errors.c -o ${WORK}/consumer_xerbla ${flags})
  run(${RUNENV} ${WORK}/consumer_xerbla)

elseif(STEP STREQUAL "fortran")
  pkg_flags(flags --libs gpublas3)
  run(${FC} ${SRC}/consumer.f90 -o ${WORK}/consumer_fortran ${flags})
  run(${RUNENV} ${WORK}/consumer_fortran)

else()
  message(FATAL_ERROR "unknown step '${STEP}'")
endif()
