#!/bin/bash
# Session 6, H100 call 11 (2026-11-23): the test suite's GPU part on the
# merged tree (host rate, device correction, the plan from the sweeps),
# less Oclgrind, the sanitizer rebuilds, the downstream packages, MPICH and
# the real LAPACK testers (call 12), at -j9, the longest first.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c11; mkdir -p $R $BD/Testing/Temporary
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
printf '%s\n' "rel_test_memlimits 1 380" "netlib_blas3_c_panels 1 59" "netlib_blas3_z_panels 1 59" \
    "host_env_cpu 1 60" "host_env_fail_over 1 60" "host_env_fail_over_reading 1 60" \
    "host_crossover_fallback 1 53" "host_env_fail 1 42" "host_env_fail_packing 1 42" "rel_test_pool 1 40" "---" \
    > $BD/Testing/Temporary/CTestCostData.txt
start=$(date +%s)
(cd $BD && timeout 470 ctest -j9 --timeout 460 -LE "oclgrind|sanitizers|scalapack|mpich" \
    -E "^downstream_|liblapack-test|netlib_lapack_" --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/ctest.log)"
grep -E "^\s+[0-9]+ - " $R/ctest.log
grep -oE "Start +[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/started
grep -oE "Test +#[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/done
echo "unfinished: $(comm -23 /tmp/started /tmp/done | tr '\n' ' ')"
grep -E "Test +#" $R/ctest.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/' | sort -g -r | head -8
tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
