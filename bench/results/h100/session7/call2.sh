#!/bin/bash
# Session 7, H100 call 2 (2026-11-23): test_pool's context hang, round
# nine: the stacks of every thread of the hanging process (eu-stack) and
# each thread's kernel wait channel, 6 s into clReleaseContext, for the
# plain case (0) and without fresh scratch (16); call 1 took the stack of
# `timeout` instead of the test's.
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c2; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
EU="/tmp/debs/usr/bin/eu-stack"
cd $BD/tests/reliability
stacks() { # $1 omit value, $2 pid of the test, $3 log
    for i in $(seq 80); do
        grep -q "release the context" $3 2>/dev/null && break
        sleep 0.5
    done
    sleep 6
    $EU -p $2 > $R/stack$1.txt 2>&1 || echo "eu-stack failed" >> $R/stack$1.txt
    for t in /proc/$2/task/*; do
        echo "$(basename $t) $(cat $t/comm) wchan=$(cat $t/wchan 2>/dev/null) $(cut -d' ' -f3 $t/stat)"
    done > $R/wchan$1.txt 2>&1
    grep -E "^(Threads|State)" /proc/$2/status >> $R/wchan$1.txt
}
for o in 0 16; do
    TEST_POOL_OMIT=$o ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
    stacks $o $! $R/pool_omit$o.log &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(tail -1 $f)"
done | tee $R/pool.txt
tar czf $OUT/s7c2.tgz -C $OUT s7c2 && rm -rf $R
