#!/bin/bash
# Session 6, H100 call 2 (2026-11-23): (1) test_pool's context hang, round
# two: Y on pooled buffers (TEST_POOL_OMIT=16: no migration of fresh ones),
# the whole case on the direct path (no scratch at all), and the driver-only
# replica of the case (TEST_POOL_REPLICA 0-3: Y migrates fresh buffers or
# not, launches X's kernel objects or its own); (2) reference LAPACK at
# n = 2048 and 4096 with and without gpublas3 (the device's correction on;
# twice), and with GPUBLAS3_LEARN=0 once, to compare.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c2; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
timeout 90 ./test_pool ooo_single_ungated > $R/warm.log 2>&1
for o in 16 17 0; do
    TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
done
GPUBLAS3_PLAN=direct timeout 60 ./test_pool gated_ooo > $R/pool_direct.log 2>&1 &
for r in 0 1 2 3; do
    TEST_POOL_REPLICA=$r timeout 60 ./test_pool ooo_replica > $R/pool_replica$r.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'replica\|Y made' $f | head -1); $(tail -1 $f)"
done | tee $R/pool.txt
cd /work/main
for pass in 1 2; do
    DEBROOT=/tmp/debs CONFIGS="reference gpublas3" sh bench/lapack_e2e.sh $BD $R/e2e$pass "" 2048,4096 2 > $R/e2e$pass.log 2>&1
    cat $R/e2e$pass/table.txt
done
GPUBLAS3_LEARN=0 DEBROOT=/tmp/debs CONFIGS="gpublas3" sh bench/lapack_e2e.sh $BD $R/e2e_nolearn "" 2048,4096 2 > $R/e2e_nolearn.log 2>&1
cat $R/e2e_nolearn/table.txt
for d in e2e1 e2e2 e2e_nolearn; do
    zcat $R/$d/gpublas3.log.gz | grep -c 'learned from' > $R/$d/learned_count.txt
    zcat $R/$d/gpublas3.log.gz | grep -E ' on NVIDIA' | grep -oE '^gpublas3: [A-Z]+ m=[0-9]+ n=[0-9]+ k=[0-9]+|done in [0-9.]+' | paste - - > $R/$d/device_calls.txt
    zcat $R/$d/gpublas3.log.gz | grep -o '[0-9]* GFLOP/s on the host' | sort | uniq -c > $R/$d/host_rates.txt
    rm -f $R/$d/gpublas3.log.gz
done
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
