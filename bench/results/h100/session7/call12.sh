#!/bin/bash
# Session 7, H100 call 12 (2026-11-23): the floor under a small call
# (issue 10's 64x64x64 target): what one OpenCL command costs on NVIDIA's
# driver (gpublas3-launch-probe), next to gpublas3's and cuBLAS's
# 32^3/64^3/128^3 calls, enqueue to completion, in the same call.
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c12; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
$BD/bench/gpublas3-launch-probe 5000 | tee $R/launch.txt
$BD/bench/gpublas3-bench --shapes 32x32x32,64x64x64,128x128x128 --reps 8 --peers gpublas3 > $R/small.txt 2>&1
grep -E "^[sd]gemm " $R/small.txt | grep -v list
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas && \
    /tmp/cublas_peer --shapes 32x32x32,64x64x64,128x128x128 --reps 64 > $R/cublas-small.txt 2>&1
grep -E "^[sd]gemm" $R/cublas-small.txt
$BD/bench/gpublas3-launch-probe 5000 | tee $R/launch2.txt
tar czf $OUT/s7c12.tgz -C $OUT s7c12 && rm -rf $R
