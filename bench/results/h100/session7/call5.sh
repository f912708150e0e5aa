#!/bin/bash
# Session 7, H100 call 5 (2026-11-23): the fix of test_pool's context hang
# (lib/pool.c: fresh scratch migrates on the pool's own in-order queue,
# never on the caller's; call 4 found the migration on the out-of-order
# queue while a gated command waited there to be the trigger): the whole
# test_pool through ctest, and the gated stages alone with the bisection's
# main variants, each in its own process.
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c5; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
(cd $BD && ctest -R "rel_test_pool" --output-on-failure > $R/ctest_pool.log 2>&1; echo "ctest rc=$?" >> $R/ctest_pool.log)
cd $BD/tests/reliability
for o in 0 2 16 128 130; do
    TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
done
timeout 60 ./test_pool gated > $R/pool_gated.log 2>&1 &
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(tail -1 $f)"
done | tee $R/pool.txt
tail -3 $R/ctest_pool.log | tee -a $R/pool.txt
tar czf $OUT/s7c5.tgz -C $OUT s7c5 && rm -rf $R
