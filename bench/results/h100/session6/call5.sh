#!/bin/bash
# Session 6, H100 call 5 (2026-11-23): (1) test_pool's driver-only replica
# with a kernel like the library's (work-group size, local memory, barrier:
# TEST_POOL_REPLICA bit 32, with the other bits); (2) reference LAPACK at
# n = 2048 and 4096 with and without gpublas3 after merging the host rate's
# learning (branch rate) and the device's correction, best of 3, twice; the
# device's correction off once (GPUBLAS3_LEARN=0) at 2048.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c5; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for r in 32 34 36 38 46 48 54 62; do
    TEST_POOL_REPLICA=$r timeout 60 ./test_pool ooo_replica > $R/pool_replica$r.log 2>&1 &
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'replica [0-9]' $f | head -1); $(tail -1 $f)"
done | tee $R/pool.txt
cd /work/main
summarize() {
    cat $1/table.txt
    zgrep -h 'host BLAS timed:' $1/gpublas3.log.gz | sed 's/^/  /' | sort | uniq -c > $1/host_timed.txt
    zgrep -h 'timed again,' $1/gpublas3.log.gz > $1/timed_again.txt
    zcat $1/gpublas3.log.gz | grep -o '[0-9.e+]* GFLOP/s on the host, [a-zA-Z0-9_ ]*' |
        sed 's/ [0-9]* host calls/ N host calls/' | sort | uniq -c | sort -rn | head -20 > $1/rates_used.txt
    zcat $1/gpublas3.log.gz | grep -c 'learned from' > $1/device_corrected.txt
    zcat $1/gpublas3.log.gz | grep -E ' on NVIDIA' | grep -oE '^gpublas3: [A-Z]+ m=[0-9]+ n=[0-9]+ k=[0-9]+|done in [0-9.]+' | paste - - > $1/device_calls.txt
    cat $1/host_timed.txt
}
for pass in 1 2; do
    DEBROOT=/tmp/debs CONFIGS="reference gpublas3" sh bench/lapack_e2e.sh $BD $R/e2e$pass "" 2048,4096 3 > $R/e2e$pass.log 2>&1
    summarize $R/e2e$pass
done
GPUBLAS3_LEARN=0 DEBROOT=/tmp/debs CONFIGS="gpublas3" sh bench/lapack_e2e.sh $BD $R/e2e_nolearn "" 2048 3 > $R/e2e_nolearn.log 2>&1
summarize $R/e2e_nolearn
find $R -name gpublas3.log.gz -size +2M -delete
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
