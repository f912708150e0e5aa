#!/bin/bash
# Session 5, H100 call H (2026-11-23): LAPACK end to end at n = 16384 in
# double precision, best of 1: DPOTRF and DGETRF in all four
# configurations, then DGEQRF without NVBLAS (its 8192 run alone took 21 s,
# x8 here) in what is left of the call.  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/h; mkdir -p $R
start=$(date +%s)
DEBROOT=/tmp/debs timeout 330 sh bench/lapack_e2e.sh $BD $R/a dpotrf,dgetrf 16384 1 > $R/a.txt 2>&1
echo "a exit $? after $(( $(date +%s) - start )) s"; tail -n 4 $R/a.txt
left=$(( 540 - ($(date +%s) - start) ))
DEBROOT=/tmp/debs CONFIGS="reference gpublas3 openblas" timeout $left sh bench/lapack_e2e.sh $BD $R/b dgeqrf 16384 1 > $R/b.txt 2>&1
echo "b exit $? after $(( $(date +%s) - start )) s"; tail -n 3 $R/b.txt; cat $R/b/lapack_e2e.csv 2>/dev/null
tar czf $OUT/h.tgz -C $OUT h && rm -rf $R
