# SPDX-License-Identifier: BSD-3-Clause
# How ctest schedules the suite (`ctest -j4` on CI's 2 cores, README):
# g3_schedule(), called at the end of each test folder's CMakeLists.txt,
# gives that folder's tests
#  - the fixture g3_kernels (the warm-up, tests/cl/test_warmup.c): every
#    test that runs kernels on the device waits for it, so that the
#    device's own kernels are compiled once and then found in the disk
#    caches instead of being compiled by several tests at the same time;
#  - a COST for the long ones, so that ctest starts them first (without
#    CTestCostData.txt from an earlier run, as on a fresh machine);
#  - RUN_SERIAL for those that judge timings (the crossover model's learned
#    rates and corrections) or memory limits, which a loaded host upsets;
#  - PROCESSORS 2 for the sanitizer builds (parallel builds);
#  - one RESOURCE_LOCK for the MPI runs (2 or 4 ranks each), so that they run
#    one at a time from the start: with PROCESSORS 2 ctest found two free
#    slots only at the end, and ran them after everything else (the last
#    4 minutes of a 12-minute warm run);
#  - a timeout of at least 20 minutes (least_timeout), enough for a test that
#    compiles its kernels cold while three others run on 2 cores.
# Tests that force a parameter set of their own share its compile through
# RESOURCE_LOCK where they are defined (tests/cl/CMakeLists.txt).
# docs/testing.md, Running in parallel, says how to run parts of the suite.
function(g3_schedule)
  set(least_timeout 1200)

  # No device kernels (or their own compiler: Oclgrind, the sanitizer builds):
  # they start at once, beside the warm-up.
  # A folder lists its own such tests in G3_NO_KERNELS before calling g3_schedule().
  set(no_warmup "^(cl_warmup_|rel_oclgrind_|rel_(asan|tsan)_build$|tree_|host_copy$|host_links_|host_crossover_price_|bench_(h100_rows|refused_option|copy_probe)$)")
  set(run_serial "^(host_rate_|host_crossover_(model|trsm|trsm_path_.*|learn)$|rel_(asan_)?test_memlimits$)")
  set(two_cores "^rel_(asan|tsan)_build$")
  set(mpi "^scalapack_")
  # about their seconds on a warm 2-core run: the order ctest starts them in
  # (the MPI runs first: one after another they take about 270 s)
  set(cost_table
    "^scalapack_pblas3_" 400
    "^rel_oclgrind_" 300
    "^rel_(asan|tsan)_build$" 120
    "^netlib_lapack_[cz]_ls_" 100
    # cold, these compile parameter sets (the tuner's copy grid, CLBlast's
    # kernels, generic work-group sizes for the disk cache) for minutes:
    # started last, they were the last 5 minutes of a cold run
    "^(cl_plan|cl_inplace|cl_batched|cl_multiqueue|cl_tilemap|cl_complex_direct|cl_trmm_h100|bench_plan_sweep|bench_batched_clblast|downstream_tools|rel_cachetime_smoke)$" 60
    "^(liblapack-test-|netlib_lapack_|netlib_blas3_[cz]_(panels|edges)$)" 30)

  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    if(NOT t MATCHES "${no_warmup}" AND NOT t IN_LIST G3_NO_KERNELS)
      set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED g3_kernels)
    endif()
    if(t MATCHES "${run_serial}")
      set_tests_properties(${t} PROPERTIES RUN_SERIAL ON)
    endif()
    if(t MATCHES "${two_cores}")
      set_tests_properties(${t} PROPERTIES PROCESSORS 2)
    endif()
    if(t MATCHES "${mpi}")
      set_tests_properties(${t} PROPERTIES RESOURCE_LOCK g3_mpi)
    endif()
    set(costs ${cost_table})
    while(costs)
      list(POP_FRONT costs regex cost)
      if(t MATCHES "${regex}")
        set_tests_properties(${t} PROPERTIES COST ${cost})
        break()
      endif()
    endwhile()
    get_test_property(${t} TIMEOUT timeout)
    if(NOT timeout OR timeout LESS least_timeout)
      set_tests_properties(${t} PROPERTIES TIMEOUT ${least_timeout})
    endif()
  endforeach()
endfunction()
