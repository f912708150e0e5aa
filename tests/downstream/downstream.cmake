# SPDX-License-Identifier: BSD-3-Clause
# The steps of the downstream proofs (see CMakeLists.txt), one per ctest
# test: cmake -DSTEP=<install|layout|pkgconfig|first|tools|cmake|xerbla|fortran|package> ... -P.
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
  if(TOOLS)
    foreach(f ${BINDIR}/gpublas3-bench ${BINDIR}/gpublas3-tune ${DATADIR}/gpublas3/pack.cl)
      require_file(${f})
    endforeach()
  endif()
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
    if(NOT pc MATCHES "Description: [^\n]*[^A-Z0-9]${routine}[^A-Z0-9]")
      message(FATAL_ERROR "gpublas3.pc's Description does not name ${routine}")
    endif()
  endforeach()
  # Exported symbols: the public names and nothing else.
  run(${NM} -D --defined-only ${LIB}/libgpublas3.so.${VERSION})
  string(REGEX MATCHALL "[^\n]+" lines "${OUT}")
  set(public "^(gpublas3[A-Z][A-Za-z0-9]*|cblas_[sdcz](gemm|symm|syrk|syr2k|trmm|trsm|gemm_batch_strided)|cblas_[cz](hemm|herk|her2k)|cblas_xerbla|[sdcz](gemm|symm|syrk|syr2k|trmm|trsm|gemm_batch_strided)_|[cz](hemm|herk|her2k)_|xerbla_)$")
  set(count 0)
  foreach(line ${lines})
    string(REGEX REPLACE "^.* " "" sym "${line}")
    if(NOT sym MATCHES "${public}")
      message(FATAL_ERROR "exported but not public: ${sym}")
    endif()
    math(EXPR count "${count} + 1")
  endforeach()
  foreach(sym dgemm_ ssyr2k_ strmm_ xerbla_ cblas_dsymm cblas_strmm cblas_xerbla gpublas3Dgemm gpublas3Setup
          zgemm_ cher2k_ cblas_zherk gpublas3Zhemm gpublas3Ctrmm
          dgemm_batch_strided_ cblas_cgemm_batch_strided gpublas3SgemmStridedBatched gpublas3ZgemmBatched)
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

elseif(STEP STREQUAL "first")
  # the README's line: cc first.c $(pkg-config --cflags --libs gpublas3) -lm
  pkg_flags(flags --cflags --libs gpublas3)
  run(${CC} ${FIRST} ${flags} -lm -o ${WORK}/first)
  run(${RUNENV} ${WORK}/first)

elseif(STEP STREQUAL "tools")
  # from the prefix alone: the tools find the library (their RUNPATH) and
  # the tuner its copy kernel (share/gpublas3) relative to themselves
  set(env ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH --unset=GPUBLAS3_TUNED_DIR
      GPUBLAS3_CACHE_DIR=off)
  execute_process(COMMAND ${env} ${STAGE}/${BINDIR}/gpublas3-bench --device cpu --shapes 40x24x56 --precisions s
                  --peers gpublas3 --reps 1 WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "1 passed, 0 FAILED")
    message(FATAL_ERROR "the installed gpublas3-bench failed (${rc})")
  endif()
  # two values of each copy axis: the whole grid is 70 compiles and proves
  # no more about the installed tool
  execute_process(COMMAND ${env} ${STAGE}/${BINDIR}/gpublas3-tune --device cpu --precision s --copy-only --size 64
                  --final 64 --timeout 60 --start mwg=16,nwg=16,kwg=8,mdimc=4,ndimc=4,vwm=4,vwn=4,kwi=1,sa=0,sb=0
                  --copy-grid copy_ts=16,8 --copy-grid copy_rs=4,2
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  string(REGEX MATCHALL "copy ts=[0-9]+ rs=[0-9]+ direct=[01]:" tried "${out}")
  string(REGEX MATCHALL "copy ts=(8|16) rs=(2|4) direct=[01]:" asked "${out}")
  list(LENGTH tried ntried)
  list(LENGTH asked nasked)
  if(NOT rc EQUAL 0 OR out MATCHES "FAILED" OR NOT out MATCHES "best: [^\n]*copy [0-9.]+ GB/s"
     OR NOT ntried EQUAL 8 OR NOT nasked EQUAL 8)
    message(FATAL_ERROR "the installed gpublas3-tune did not tune the copy kernel on its --copy-grid (${rc}, "
            "${nasked} of ${ntried} points asked for, 8 wanted)")
  endif()
  execute_process(COMMAND ${env} ${STAGE}/${BINDIR}/gpublas3-tune --copy-grid copy_tx=8
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0 OR NOT out MATCHES "--copy-grid copy_tx=8: want AXIS")
    message(FATAL_ERROR "gpublas3-tune took an axis the copy grid has not (${rc}): ${out}")
  endif()

elseif(STEP STREQUAL "package")
  set(dir ${WORK}/package)
  set(root ${dir}/root)
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${root})
  run(${CPACK} -G DEB --config ${BUILD}/CPackConfig.cmake -B ${dir})
  file(GLOB debs ${dir}/*.deb)
  foreach(pkg libgpublas3 libgpublas3-dev)
    if(NOT debs MATCHES "/${pkg}_${VERSION}_[^/;]*\\.deb")
      message(FATAL_ERROR "cpack made no ${pkg} ${VERSION} package: ${debs}")
    endif()
  endforeach()
  # the library alone in libgpublas3; headers, .pc and tools in -dev
  foreach(deb ${debs})
    run(${DPKG_DEB} --contents ${deb})
    if(deb MATCHES "/libgpublas3_" AND (NOT OUT MATCHES "libgpublas3\\.so\\.${VERSION}" OR OUT MATCHES "include/"))
      message(FATAL_ERROR "libgpublas3 should hold the shared library and no header")
    endif()
    if(deb MATCHES "/libgpublas3-dev_" AND NOT OUT MATCHES "gpublas3\\.pc.*gpublas3\\.h|gpublas3\\.h.*gpublas3\\.pc")
      message(FATAL_ERROR "libgpublas3-dev should hold gpublas3.h and gpublas3.pc")
    endif()
    run(${DPKG_DEB} -x ${deb} ${root})
  endforeach()
  file(GLOB_RECURSE pcs ${root}/*/gpublas3.pc)
  list(LENGTH pcs npc)
  if(NOT npc EQUAL 1)
    message(FATAL_ERROR "the packages hold ${npc} gpublas3.pc files")
  endif()
  get_filename_component(pcdir ${pcs} DIRECTORY)
  get_filename_component(libdir ${pcdir} DIRECTORY)
  # pkg-config alone, pointed into the root (the .pc finds its prefix from
  # its own folder, so the sysroot must not be added to it twice)
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_SYSROOT_DIR=${root} PKG_CONFIG_PATH=${pcdir}
      ${PKG_CONFIG} --cflags --libs gpublas3)
  if(NOT OUT MATCHES "-L${root}/" OR OUT MATCHES "${root}${root}")
    message(FATAL_ERROR "pkg-config's flags do not point into ${root} once")
  endif()
  separate_arguments(flags UNIX_COMMAND "${OUT}")
  run(${CC} ${FIRST} ${flags} -lm -o ${dir}/first)
  run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ldd ${dir}/first)
  if(NOT OUT MATCHES "libgpublas3\\.so\\.[0-9]+ => ${libdir}/")
    message(FATAL_ERROR "first does not load the packaged library")
  endif()
  run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ${dir}/first)

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
