#!/bin/bash
# Session 6, H100 call 4 (2026-11-23): (1) test_pool's context hang, round
# four: either library call of the gated out-of-order case replaced by a
# trivial kernel of the test's own (TEST_POOL_OMIT 32: Y raw, 64: X raw,
# 96: both), and Y ordered after X (128), on the packed and direct paths;
# (2) the second plan sweep (helper branch plan6's plan_sweep2.sh).
set -u
BD=/work/main/.device-carry/build
R=$OUT/c4; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
timeout 90 ./test_pool ooo_single_ungated > $R/warm.log 2>&1
for o in 32 64 96 128; do
    TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
    GPUBLAS3_PLAN=direct TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_direct_omit$o.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(tail -1 $f)"
done | tee $R/pool.txt
cd /work/main
OUT=$R bash bench/results/h100/session6/plan_sweep2.sh > $R/sweep2.log 2>&1
tail -n 60 $R/sweep2.log
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
