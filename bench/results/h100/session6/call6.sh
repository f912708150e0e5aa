#!/bin/bash
# Session 6, H100 call 6 (2026-11-23): LAPACK end to end at n = 8192, all
# four configurations (reference LAPACK alone, with gpublas3 preloaded,
# OpenBLAS's own LAPACK, NVBLAS), best of 2, after the host rate's learning
# and the device's correction.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c6; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd /work/main
DEBROOT=/tmp/debs timeout 570 sh bench/lapack_e2e.sh $BD $R/e2e "" 8192 2 > $R/e2e.log 2>&1
echo "exit $?"; cat $R/e2e/table.txt
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
