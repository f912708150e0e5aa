#!/bin/bash
# Session 20, H100, call 2 (bench/NOTES.md section 44), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session20/call2.sh"
# On aba58f8 (session 19's final device code, whose suite passed there):
# 1. issue 10's shape suite, gpublas3 and CLBlast 1.5.3 in one run, cuBLAS
#    (no TF32) right after, every result checked first: the README's table;
# 2. every routine at n = 1024 and 4096, S and D, gpublas3 alone, two
#    rounds (the routines' ratios to our GEMM).
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call2; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call2.tgz -C /tmp call2; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log; nvcc --version >> $R/nvcc.log) &

timeout 330 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
echo "suite exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack
wait
timeout 60 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -E "checked|target met" $R/shapes.txt
pack
for round in 1 2; do
    [ $SECONDS -lt 500 ] || break
    timeout 50 $B --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --precisions s,d --peers gpublas3 \
        --reps 5 --sample 256 --csv $R/routines-$round.csv > $R/routines-$round.txt 2>&1
    echo "routines $round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
done
pack
