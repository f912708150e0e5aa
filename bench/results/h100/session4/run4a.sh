#!/bin/bash
# Session 4, fourth H100 call (2026-11-22): why LAPACK preloaded was slower
# than reference LAPACK at n = 2048 and 4096 in call 3.  The crossover
# model's constants measured here (crossover_measure: the H100 row of
# routines/dropin/crossover.c was an estimate), then POTRF/GETRF at 2048
# and 4096 preloaded with GPUBLAS3_VERBOSE, summarised per routine (which
# calls went to the device and what they took), then the host DGEMM A/B of
# issue 12 item 3 (host_ab.sh).  Everything lands in one archive (the
# device tool brings back few files).  Run through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/r4a; mkdir -p $R
GPUBLAS3_VERBOSE= timeout 120 $BD/tests/host/crossover_measure 4096 libopenblas.so.0 > $R/crossover.txt 2>&1
echo "crossover exit $?"; grep -E "GEMM|row|\{|wins" $R/crossover.txt | head -30
CONFIGS="reference gpublas3" DEBROOT=/tmp/debs timeout 120 sh bench/lapack_e2e.sh $BD $R/e2e dpotrf,dgetrf,spotrf 2048,4096 1 > $R/e2e.txt 2>&1
echo "e2e exit $?"; tail -n 8 $R/e2e.txt
zcat $R/e2e/gpublas3.log.gz > $R/gpublas3.log 2>/dev/null
# device calls: routine, shape and time; the slowest and a count per routine
grep -E "^gpublas3: [SD][A-Z0-9]+ m=" $R/gpublas3.log | sed -E 's/^gpublas3: ([A-Z0-9]+) (m=[0-9]+ n=[0-9]+ k=[0-9]+).*done in ([0-9.]+) s.*/\1 \2 \3/' > $R/device_calls.txt
awk '{ n[$1]++; t[$1] += $NF } END { for (r in n) printf "%-6s %5d device calls, %.3f s\n", r, n[r], t[r] }' $R/device_calls.txt
sort -k5 -g -r $R/device_calls.txt | head -12
grep -m3 "on the host BLAS\|to the device" $R/gpublas3.log | cut -c1-200
timeout 140 bash bench/results/h100/session4/host_ab.sh > $R/host_ab.txt 2>&1
echo "host_ab exit $?"; cat $OUT/host_ab/table.txt 2>/dev/null || tail -20 $R/host_ab.txt
cp -r $OUT/host_ab $R/ 2>/dev/null
tar czf $OUT/r4a.tgz -C $OUT r4a && rm -rf $R $OUT/host_ab
