#!/bin/bash
# Session 13, H100, call 4: LAPACK end to end at n = 8192 (issue 12), all
# four configurations (reference LAPACK alone, with gpublas3 preloaded,
# OpenBLAS's own LAPACK, NVBLAS), best of 2, on the tree with the leaf
# kernel (session 12) and the drop-ins' TRSM price for leaves (session 13),
# LU first.  Through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session13/call4.sh"
set -u
BD=/work/main/.device-carry/build
R=$OUT/call4; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd /work/main
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
DEBROOT=/tmp/debs timeout 575 sh bench/lapack_e2e.sh $BD $R/e2e sgetrf,dgetrf,spotrf,dpotrf,sgeqrf,dgeqrf 8192 2 \
    > $R/e2e.log 2>&1
echo "exit $?"; cat $R/e2e/table.txt
tar czf $OUT/call4.tgz -C $OUT call4
