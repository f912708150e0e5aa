#!/bin/bash
# Session 7, H100 call 6 (2026-11-23): issue 10's shape suite after the
# plan's skinny_max (64) and the large set's split-K aim (2 work-groups per
# SM): every suite shape's plan line (probe), then the suite timed with
# CLBlast in one run and cuBLAS (no TF32) right after, each result checked
# first; bench/plot.py makes the README's table and plot from the CSVs.
# Run through bench/gpu_run.sh from the repository root.
set -u
BD=/work/main/.device-carry/build
B=$BD/bench/gpublas3-bench
R=$OUT/s7c6; mkdir -p $R
GPUBLAS3_VERBOSE=1 timeout 60 $B --suite shapes --probe --peers gpublas3 2>&1 | grep "plan: " \
    | sed -E 's/.*plan: //; s/ terms=1 tri=0 band=0//; s/ \(nvidia-h100.csv, H100\|H200\)//' > $R/plans.txt
timeout 330 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
echo "suite exit $?" | tee -a $R/exit.txt
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas || echo "nvcc failed"
timeout 90 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $?" | tee -a $R/exit.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
grep -E "checked|target met" $R/shapes.txt
tar czf $OUT/s7c6.tgz -C $OUT s7c6 && rm -rf $R
