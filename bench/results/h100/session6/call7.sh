#!/bin/bash
# Session 6, H100 call 7 (2026-11-23): test_pool's context hang, round
# five: the direct path for real (GPUBLAS3_PLAN=direct now wins over the
# test's packed default; calls 2-4's "direct" runs were packed), the
# library's own kernel replayed twice by the test (ooo_replay: the first
# launch gated; direct and packed), a replica kernel with 40 KB of local
# memory (TEST_POOL_REPLICA 64).
set -u
BD=/work/main/.device-carry/build
R=$OUT/c7; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
timeout 90 ./test_pool ooo_single_ungated > $R/warm.log 2>&1
GPUBLAS3_PLAN=direct timeout 90 ./test_pool ooo_single_ungated > $R/warm_direct.log 2>&1
GPUBLAS3_PLAN=direct timeout 60 ./test_pool gated_ooo > $R/pool_direct.log 2>&1 &
GPUBLAS3_PLAN=direct TEST_POOL_OMIT=128 timeout 60 ./test_pool gated_ooo > $R/pool_direct_omit128.log 2>&1 &
GPUBLAS3_PLAN=direct timeout 60 ./test_pool ooo_replay > $R/pool_replay_direct.log 2>&1 &
timeout 60 ./test_pool ooo_replay > $R/pool_replay_packed.log 2>&1 &
for r in 64 66 70 86; do
    TEST_POOL_REPLICA=$r timeout 60 ./test_pool ooo_replica > $R/pool_replica$r.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'replica [0-9]\|replayed' $f | head -1); $(tail -1 $f)"
done | tee $R/pool.txt
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
