#!/bin/bash
# Session 5, H100 call G (2026-11-23): test_pool's out-of-order hang against
# a driver-only control of one kernel object launched gated then ungated;
# then LAPACK end to end at n = 2048, 4096, 8192 (best of 2, all four
# configurations) with the crossover's TRSM term and the host timed before
# the driver opens.  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/g; mkdir -p $R
(export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache; cd $BD/tests/reliability
 for s in ooo_kernel_control gated_ooo; do
     echo "== test_pool $s" >> $R/pool.log
     timeout 30 ./test_pool $s >> $R/pool.log 2>&1; echo "test_pool $s exit $?" | tee -a $R/pool.log
 done; grep wrote $R/pool.log)
DEBROOT=/tmp/debs timeout 420 sh bench/lapack_e2e.sh $BD $R/e2e "" 2048,4096,8192 2 > $R/e2e.txt 2>&1
echo "e2e exit $?"; tail -n 24 $R/e2e.txt
zcat $R/e2e/gpublas3.log.gz | grep -oE "[0-9]+ GFLOP/s on the host" | sort | uniq -c | sort -rn | head -4
tar czf $OUT/g.tgz -C $OUT g && rm -rf $R
