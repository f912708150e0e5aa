#!/bin/bash
# Session 7, H100 call 13 (2026-11-23): the direct path's one launch
# without an event when the caller takes none (call 12's launch probe: an
# event costs about 2 us of NVIDIA's 10-12 us enqueue-to-completion):
# gpublas3 and cuBLAS on 32^3, 64^3, 128^3, twice each, alternating.
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c13; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas
for i in 1 2; do
    $BD/bench/gpublas3-bench --shapes 32x32x32,64x64x64,128x128x128 --reps 8 --peers gpublas3,clblast > $R/small$i.txt 2>&1
    grep -E "^[sd]gemm " $R/small$i.txt | grep -v list
    /tmp/cublas_peer --shapes 32x32x32,64x64x64,128x128x128 --reps 64 > $R/cublas-small$i.txt 2>&1
    grep -E "^[sd]gemm" $R/cublas-small$i.txt
done
tar czf $OUT/s7c13.tgz -C $OUT s7c13 && rm -rf $R
