#!/bin/bash
# Session 5, H100 call E (2026-11-23): where test_pool's out-of-order case
# and test_memlimits hang (rel_watchdog prints the stuck stage's backtrace
# after 20 s); crossover_measure with the TRSM term; DPOTRF/DGETRF 2048
# with the drop-ins' verbose log (the host rate the model timed, where the
# small TRSMs went).  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/e; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
(cd $BD/tests/reliability
 timeout 45 ./test_pool gated_ooo > $R/pool.log 2>&1; echo "pool exit $?"; grep -vE "^test_pool: +[0-9.]+ s: gated," $R/pool.log | head -40
 timeout 60 ./test_memlimits > $R/memlimits.log 2>&1; echo "memlimits exit $?"; grep -A30 "stuck" $R/memlimits.log | head -40; tail -n 3 $R/memlimits.log)
L=/tmp/debs/usr/lib/x86_64-linux-gnu
timeout 150 $BD/tests/host/crossover_measure 4096 $L/openblas-pthread/libopenblas.so.0 > $R/measure.txt 2>&1
echo "measure exit $?"; grep -E "GEMM:|TRSM beyond|crossover|row|\{" $R/measure.txt
DEBROOT=/tmp/debs CONFIGS="reference gpublas3" timeout 120 sh bench/lapack_e2e.sh $BD $R/e2e dpotrf,dgetrf,spotrf 2048 1 > $R/e2e.txt 2>&1
echo "e2e exit $?"; tail -n 8 $R/e2e.txt
zcat $R/e2e/gpublas3.log.gz | grep -oE "[0-9]+ GFLOP/s on the host" | sort | uniq -c | sort -rn | head
zcat $R/e2e/gpublas3.log.gz | grep -m3 -E "TRSM|trsm"
tar czf $OUT/e.tgz -C $OUT e && rm -rf $R
