#!/bin/bash
# Session 6, H100 call 3 (2026-11-23): (1) test_pool's context hang, round
# three: the library's direct-path case with programs built from source
# (GPUBLAS3_CACHE_DIR=off) and the driver-only replica with a flush after
# X, a program from its binary, one launch each (TEST_POOL_REPLICA bits 4,
# 8, 16 with 1 and 2); (2) the plan sweep (bench/plan_sweep.py, helper
# branch plan6): every GPU-suite shape under every class and path.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c3; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
timeout 90 ./test_pool ooo_single_ungated > $R/warm.log 2>&1
GPUBLAS3_CACHE_DIR=off GPUBLAS3_PLAN=direct timeout 60 ./test_pool gated_ooo > $R/pool_direct_source.log 2>&1 &
GPUBLAS3_PLAN=direct TEST_POOL_OMIT=1 timeout 60 ./test_pool gated_ooo > $R/pool_direct_omit1.log 2>&1 &
for r in 4 6 7 12 14 15 20 22 30 31; do
    TEST_POOL_REPLICA=$r timeout 60 ./test_pool ooo_replica > $R/pool_replica$r.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'replica [0-9]' $f | head -1); $(tail -1 $f)"
done | tee $R/pool.txt
cd /work/main
command -v python3 || echo "no python3 here"
SWEEP_BUDGET=300 SWEEP_TIMEOUT=100 SWEEP_REPS=5 timeout 420 bash bench/plan_sweep.sh "$BD" "$R/sweep" shapes > $R/sweep.log 2>&1
echo "plan sweep exit $?"
tail -n 80 $R/sweep.log
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
