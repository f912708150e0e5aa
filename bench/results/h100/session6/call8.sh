#!/bin/bash
# Session 6, H100 call 8 (2026-11-23): test_pool's context hang, round
# six: the packed path's three launches of one library call (pack A, pack
# B, GEMM), recorded by the shim and replayed twice by the test on one
# out-of-order queue, the first time gated (ooo_replay); the gated case
# itself again, as the control.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c8; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
timeout 90 ./test_pool ooo_single_ungated > $R/warm.log 2>&1
timeout 60 ./test_pool ooo_replay > $R/pool_replay_packed.log 2>&1 &
GPUBLAS3_PLAN=direct timeout 60 ./test_pool ooo_replay > $R/pool_replay_direct.log 2>&1 &
timeout 60 ./test_pool gated_ooo > $R/pool_gated_ooo.log 2>&1 &
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'replayed' $f | head -1); $(tail -1 $f)"
done | tee $R/pool.txt
tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
