#!/bin/bash
# Session 4, third H100 call (2026-11-22): issue 14's complex figures
# (complex.sh: GEMM in s, d, c, z at 8192 with CLBlast, the Z routines at
# 4096, cuBLAS on the same cases, the ratio table), then issue 12's LAPACK
# end to end (bench/lapack_e2e.sh: reference LAPACK over OpenBLAS, with
# gpublas3 preloaded, OpenBLAS's own LAPACK and NVBLAS, n = 2048..8192,
# best of 1).  Run through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
timeout 170 bash bench/results/h100/session4/complex.sh > $OUT/complex.txt 2>&1
echo "complex exit $?"; cat $OUT/complex/table.txt 2>/dev/null || tail -30 $OUT/complex.txt
DEBROOT=/tmp/debs timeout 380 sh bench/lapack_e2e.sh $BD $OUT/e2e "" 2048,4096,8192 1 > $OUT/e2e.txt 2>&1
echo "e2e exit $?"; tail -n 40 $OUT/e2e.txt
