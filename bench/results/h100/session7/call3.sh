#!/bin/bash
# Session 7, H100 call 3 (2026-11-23): test_pool's context hang, round
# ten: Y on X's own buffers (4096), a second's pause before Y (8192), Y
# replaced by X's own launches replayed by the shim (16384; with 128,
# ordered after X; with 4096), each variant in its own process, all at
# once.
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c3; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for o in 0 4096 8192 16384 16512 12288 20480; do
    TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'reference count' $f); $(tail -1 $f)"
done | tee $R/pool.txt
nvidia-smi --query-gpu=driver_version,name --format=csv,noheader >> $R/pool.txt
tar czf $OUT/s7c3.tgz -C $OUT s7c3 && rm -rf $R
