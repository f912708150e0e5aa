#!/bin/bash
# Session 20, H100, call 3 (bench/NOTES.md section 44), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session20/call3.sh"
# On the tree with one triangle predicate in kernels/store.cl and the
# one-at-a-time lock inside enqueue() (lib/launch.c):
# 1. the suite's first part (session7/suite.sh part1);
# 2. the shape suite's last case, D 8192^3, which call 2's suite did not
#    reach in its time limit (cold kernel cache): gpublas3 and CLBlast in
#    one run, cuBLAS right after.
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=/tmp/call3; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call3.tgz -C /tmp call3; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &
bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
echo "suite part1 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
tail -25 $R/suite-part1.txt
pack
S="--shapes 8192x8192x8192 --precisions d --reps 5"
timeout 90 $B $S --peers gpublas3,clblast --csv $R/d8192.csv > $R/d8192.txt 2>&1
echo "d8192 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
wait
timeout 40 /tmp/cublas_peer $S --csv $R/cublas-d8192.csv > $R/cublas-d8192.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
