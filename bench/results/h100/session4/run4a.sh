#!/bin/bash
# Session 4, fourth H100 call (2026-11-22): the crossover model's constants
# measured here (crossover_measure: the H100 row of
# routines/dropin/crossover.c was an estimate, and LAPACK preloaded was
# slower than reference LAPACK at n = 2048 and 4096 in call 3), then TRSM's
# A/B of the trsm2 work (trsm_ab.sh) and the host DGEMM A/B of issue 12
# item 3 (host_ab.sh).  Logs in one archive (the device tool brings back
# few files).  Run through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/r4a; mkdir -p $R
GPUBLAS3_VERBOSE= timeout 100 $BD/tests/host/crossover_measure 4096 libopenblas.so.0 > $R/crossover.txt 2>&1
echo "crossover exit $?"; grep -E "GEMM|row|\{|wins" $R/crossover.txt | head -40
timeout 115 bash bench/results/h100/session4/trsm_ab.sh > $R/trsm_ab.txt 2>&1
echo "trsm_ab exit $?"; cat $OUT/trsm_ab.table 2>/dev/null || tail -30 $R/trsm_ab.txt
timeout 100 bash bench/results/h100/session4/host_ab.sh > $R/host_ab.txt 2>&1
echo "host_ab exit $?"; cat $OUT/host_ab/table.txt 2>/dev/null || tail -20 $R/host_ab.txt
mv $OUT/host_ab $OUT/trsm_ab* $R/ 2>/dev/null
tar czf $OUT/r4a.tgz -C $OUT r4a && rm -rf $R
