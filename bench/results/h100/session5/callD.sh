#!/bin/bash
# Session 5, H100 call D (2026-11-23): test_pool's out-of-order case and
# its driver control alone (after the "gated" stage NVIDIA's
# clReleaseContext did not return, call C); test_memlimits with a line per
# case (call C: past 200 s with nothing printed).  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/d; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for s in ooo_control gated_ooo; do
    echo "== test_pool $s" | tee -a $R/pool.log
    timeout 30 ./test_pool $s >> $R/pool.log 2>&1; echo "exit $?" | tee -a $R/pool.log
done
cat $R/pool.log
start=$(date +%s)
timeout 150 ./test_memlimits > $R/memlimits.log 2>&1
echo "memlimits exit $? after $(( $(date +%s) - start )) s"; head -n 5 $R/memlimits.log; tail -n 8 $R/memlimits.log
tar czf $OUT/d.tgz -C $OUT d && rm -rf $R
