#!/bin/bash
# Session 5, H100 call F (2026-11-23): the tests touched since calls A and B
# on the final tree (the crossover's TRSM term and host timing, the panel
# shrinking fix, test_memlimits, test_pool), LAPACK's suite under the
# crossover model with less contention than call B's -j14; then
# test_pool's out-of-order case against a driver-only control of the
# library's migrate-and-marker pattern, each in its own process (the hang
# is at the final clReleaseContext).  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/f; mkdir -p $R $BD/Testing/Temporary
printf '%s\n' "liblapack-test-s 1 240" "liblapack-test-d 1 230" "liblapack-test-device-d 1 180" \
    "host_env_cpu 1 60" "host_env_fail_over 1 60" "host_env_fail_over_reading 1 60" "---" \
    > $BD/Testing/Temporary/CTestCostData.txt
start=$(date +%s)
(cd $BD && timeout 400 ctest -j10 --timeout 390 -R "^host_|liblapack-test|^rel_|bench_trsm" \
    -LE "oclgrind|sanitizers|scalapack|mpich" --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/ctest.log)"
grep -E "^\s+[0-9]+ - " $R/ctest.log
grep -E "Test +#" $R/ctest.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/' | sort -g -r | head -6
cp $BD/Testing/Temporary/LastTest.log $R/
grep -E "xlintst.*seconds|time|ratio" $R/LastTest.log | head -12
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for s in ooo_migrate_control gated_ooo; do
    echo "== test_pool $s" >> $R/pool.log
    timeout 35 ./test_pool $s >> $R/pool.log 2>&1; echo "test_pool $s exit $?" | tee -a $R/pool.log
done
tar czf $OUT/f.tgz -C $OUT f && rm -rf $R
