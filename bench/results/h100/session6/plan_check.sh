#!/bin/bash
# Session 6, H100: the plan chosen from the sweeps (branch plan6 after
# 1423f31; bench/NOTES.md section 18), checked where it was measured: each
# suite shape's plan line (probe), then the open shapes of plan_sweep2.sh
# timed on the default plan, to set beside sweep2/sweep.md's default and
# best columns.  About 1.5 minutes.  From the repository root, the build of
# branch plan6 carried in .device-carry/build:
#     bash bench/results/h100/session6/plan_check.sh
# Outside bench/gpu_run.sh it runs itself through it (device.sh).  Writes
# $OUT/check/{plans.txt,open.csv,open.txt}.
set -u
source bench/results/h100/session6/device.sh
B=$BUILD/bench/gpublas3-bench
R=$OUT/check; mkdir -p $R
GPUBLAS3_VERBOSE=1 timeout 60 $B --suite shapes --probe --peers gpublas3 2>&1 | grep "plan: " \
    | sed -E 's/.*plan: //; s/ terms=1 tri=0 band=0//; s/ \(nvidia-h100.csv, H100\)//' > $R/plans.txt
SHAPES=4096x4096x64,4096x4096x256,8192x64x8192,64x8192x8192,16384x128x4096,128x8192x8192:TN
SHAPES+=,64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN
SHAPES+=,32x32x32,64x64x64,128x128x128,256x256x256,512x512x512,1024x1024x1024,2048x2048x2048
timeout 150 $B --shapes $SHAPES --peers gpublas3 --reps 5 --sample 256 --csv $R/open.csv > $R/open.txt 2>&1
echo "open shapes exit $?"
cut -c1-150 $R/plans.txt
grep -E "^ *[sd]gemm .*[0-9]$|checked" $R/open.txt
