#!/bin/bash
# Session 7, H100 call 4 (2026-11-23): test_pool's context hang, round
# eleven (call 3: Y replayed does not hang, Y as a library call on X's
# buffers does): the pool filled with two sets before X, made on two
# in-order queues (32768; with 128 Y after X; with 2048 traced), markers
# in place of the fresh scratch's migrations (65536; with 2 no warm-up;
# with 32768).
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c4; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for o in 0 32768 65536 65538 32896 34816 98304; do
    TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'reference count' $f); $(tail -1 $f)"
done | tee $R/pool.txt
nvidia-smi --query-gpu=driver_version,name --format=csv,noheader >> $R/pool.txt
tar czf $OUT/s7c4.tgz -C $OUT s7c4 && rm -rf $R
