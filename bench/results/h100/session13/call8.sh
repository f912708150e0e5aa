#!/bin/bash
# Session 13, H100, call 8: issue 10's shape suite on the final tree (the
# README's table was session 11's call 4; since then session 12's medium_k
# and the leaf kernel), gpublas3 and CLBlast 1.5.3 in one run, cuBLAS (no
# TF32) right after, every result checked first (as session 11's call 4),
# through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session13/call8.sh"
# Writes $OUT/call8.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call8; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &
timeout 400 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
echo "suite exit $? at ${SECONDS} s" | tee -a $R/exit.txt
wait
timeout 80 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -E "checked|target met" $R/shapes.txt
tar czf $OUT/call8.tgz -C $OUT call8
