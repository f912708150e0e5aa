#!/bin/bash
# Session 5, H100 call C (2026-11-23): test_memlimits with drained pools
# instead of restarts; test_pool stage by stage, to find what leaves the
# final clReleaseCommandQueue/clReleaseContext hanging (call B: every stage
# passed, "done" printed, then no exit).  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for s in release_control teardown_pending "repeated gated" "contexts bounded" ""; do
    echo "== test_pool $s" | tee -a $R/pool.log
    timeout 60 ./test_pool $s >> $R/pool.log 2>&1; echo "exit $?" | tee -a $R/pool.log
    tail -n 4 $R/pool.log
done
start=$(date +%s)
timeout 200 ./test_memlimits > $R/memlimits.log 2>&1
echo "memlimits exit $? after $(( $(date +%s) - start )) s"; tail -n 3 $R/memlimits.log
tar czf $OUT/c.tgz -C $OUT c && rm -rf $R
