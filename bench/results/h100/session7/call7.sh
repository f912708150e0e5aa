#!/bin/bash
# Session 7, H100 call 7 (2026-11-23): issue 10's shape suite again, now
# with 20 ms of untimed device calls before each case's timed ones in both
# gpublas3-bench and cublas_peer (call 6 timed DGEMM 1024^3 at 6.9 TFLOP/s:
# the GPU's clocks had fallen during the host's checks); the plan as in
# call 6 (call6/plans.txt).  gpublas3 and CLBlast in one run, cuBLAS (no
# TF32) right after, every result checked first.  Through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
B=$BD/bench/gpublas3-bench
R=$OUT/s7c7; mkdir -p $R
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas || echo "nvcc failed"
timeout 420 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
echo "suite exit $?" | tee -a $R/exit.txt
timeout 90 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $?" | tee -a $R/exit.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
grep -E "checked|target met" $R/shapes.txt
tar czf $OUT/s7c7.tgz -C $OUT s7c7 && rm -rf $R
