#!/bin/bash
# Session 6, H100 call 14 (2026-11-23): n = 16384, best of 1, the cases
# never measured in one run: SPOTRF in all four configurations after the
# host rate became per size; DGEQRF with OpenBLAS's LAPACK and NVBLAS next
# to gpublas3 (reference: session 5); DGETRF with NVBLAS.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c14; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd /work/main
DEBROOT=/tmp/debs VERBOSE_N=0 timeout 100 sh bench/lapack_e2e.sh $BD $R/spotrf spotrf 16384 1 > $R/spotrf.log 2>&1
cat $R/spotrf/table.txt
DEBROOT=/tmp/debs CONFIGS="gpublas3 openblas nvblas" VERBOSE_N=0 timeout 330 sh bench/lapack_e2e.sh $BD $R/dgeqrf dgeqrf 16384 1 > $R/dgeqrf.log 2>&1
cat $R/dgeqrf/table.txt
DEBROOT=/tmp/debs CONFIGS="nvblas" timeout 100 sh bench/lapack_e2e.sh $BD $R/dgetrf dgetrf 16384 1 > $R/dgetrf.log 2>&1
cat $R/dgetrf/table.txt
tar czf $OUT/c14.tgz -C $OUT c14 && rm -rf $R
