#!/bin/bash
# Session 14, H100, call 6 (bench/NOTES.md section 38): issue 10's update
# shapes on the final tree (cpref 4 on the large rows and the S medium
# row), gpublas3 and CLBlast 1.5.3 in one run, cuBLAS (no TF32) right
# after, every result checked first (as session 13's call 8, the update
# group only), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session14/call6.sh"
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call6; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call6.tgz -C /tmp call6; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &
UP="4096x4096x64,4096x4096x256,8192x8192x128,8192x8192x256,8192x8192x512,16384x16384x256,8192x8192x256:NT"
timeout 200 $B --shapes $UP --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv > $R/shapes.txt 2>&1
echo "suite exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack
wait
timeout 60 /tmp/cublas_peer --shapes $UP --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -E "checked" $R/shapes.txt
pack
