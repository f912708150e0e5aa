#!/bin/bash
# Session 6, H100 call 10 (2026-11-23): LAPACK end to end at n = 16384 in
# single precision (never measured), all four configurations, best of 1.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c10; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd /work/main
DEBROOT=/tmp/debs timeout 580 sh bench/lapack_e2e.sh $BD $R/e2e spotrf,sgetrf,sgeqrf 16384 1 > $R/e2e.log 2>&1
echo "exit $?"; cat $R/e2e/lapack_e2e.csv; cat $R/e2e/table.txt
tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
