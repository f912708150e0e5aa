#!/bin/bash
# Session 5, H100 call A (2026-11-23): the test suite's GPU part on the
# final tree, less Oclgrind, the sanitizer rebuilds, the downstream
# packages, MPICH (not on that image) and the real LAPACK testers but for
# the complex ones, which never ran there (call B runs the others).
# rel_test_pool runs alone first (its stages printed), then everything else
# at -j9, the longest first (a cost file ranks them).  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/a; mkdir -p $R
(cd $BD && timeout 150 ctest -R rel_test_pool -V) > $R/pool.log 2>&1
echo "pool exit $?"; grep -E "test_pool:|note:|Passed|Failed|FAIL|Timeout" $R/pool.log | head -20
mkdir -p $BD/Testing/Temporary
printf '%s\n' "netlib_lapack_z 1 400" "netlib_lapack_c 1 390" "rel_test_memlimits 1 380" \
    "host_env_cpu 1 60" "host_env_fail_over 1 60" "host_env_fail_over_reading 1 60" "netlib_blas3_c_panels 1 59" \
    "netlib_blas3_z_panels 1 59" "host_crossover_fallback 1 53" "host_env_fail 1 42" "host_env_fail_packing 1 42" \
    "---" > $BD/Testing/Temporary/CTestCostData.txt
start=$(date +%s)
(cd $BD && timeout 420 ctest -j9 --timeout 410 -LE "oclgrind|sanitizers|scalapack|mpich" \
    -E "^downstream_|rel_test_pool|liblapack-test|netlib_lapack_[sd]" --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/ctest.log)"
grep -E "^\s+[0-9]+ - " $R/ctest.log
grep -oE "Start +[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/started
grep -oE "Test +#[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/done
echo "unfinished: $(comm -23 /tmp/started /tmp/done | tr '\n' ' ')"
grep -E "Test +#" $R/ctest.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/' | sort -g -r | head -8
tar czf $OUT/a.tgz -C $OUT a && rm -rf $R
