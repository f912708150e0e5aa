#!/bin/bash
# Session 5, H100 call B (2026-11-23): what call A left: the real LAPACK
# testers (LAPACK's suite under the crossover model and with every call on
# the device; the complex testers now in four parts each), rel_test_pool
# (Teardown now on a thread, with a driver control) and rel_test_memlimits
# (quick on a GPU), at -j14, the longest first.  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/b; mkdir -p $R $BD/Testing/Temporary
printf '%s\n' "liblapack-test-s 1 240" "liblapack-test-d 1 230" "liblapack-test-device-d 1 180" \
    "netlib_lapack_z_ls_m50 1 200" "netlib_lapack_c_ls_m50 1 199" "netlib_lapack_z_ls_m0_10 1 198" \
    "netlib_lapack_c_ls_m0_10 1 197" "rel_test_memlimits 1 196" "netlib_lapack_d_trsm_direct 1 150" \
    "netlib_lapack_s_trsm_direct 1 149" "netlib_lapack_d 1 148" "netlib_lapack_s 1 147" "---" \
    > $BD/Testing/Temporary/CTestCostData.txt
start=$(date +%s)
(cd $BD && timeout 560 ctest -j14 --timeout 550 -R "lapack|rel_test_pool|rel_test_memlimits" \
    -LE "oclgrind|sanitizers|scalapack|mpich" --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/ctest.log)"
grep -E "^\s+[0-9]+ - " $R/ctest.log
grep -oE "Start +[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/started
grep -oE "Test +#[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/done
echo "unfinished: $(comm -23 /tmp/started /tmp/done | tr '\n' ' ')"
grep -E "Test +#" $R/ctest.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/' | sort -g -r
cp $BD/Testing/Temporary/LastTest.log $R/ 2>/dev/null
grep -E "test_pool:|note:|test_memlimits:|seconds|time" $R/LastTest.log | head -30
tar czf $OUT/b.tgz -C $OUT b && rm -rf $R
