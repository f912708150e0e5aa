#!/bin/bash
# Session 6, H100 call 9 (2026-11-23): test_pool's context hang, round
# seven: the replica with what the pool does between X and Y (X's last
# event's status queried while X is gated: REPLICA bit 128; the event
# retained and released at the end: 256), with and without the other bits.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c9; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for r in 128 256 384 390 391 132 164 228; do
    TEST_POOL_REPLICA=$r timeout 60 ./test_pool ooo_replica > $R/pool_replica$r.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'replica [0-9]' $f | head -1); $(tail -1 $f)"
done | tee $R/pool.txt
tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
