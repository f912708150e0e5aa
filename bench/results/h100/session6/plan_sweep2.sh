#!/bin/bash
# Session 6, H100, second plan sweep (issue 10, branch plan6): what the
# first (plan_sweep.sh, sweep/) left out when its 300 s went on the
# default's host checks of the big shapes: the default in S, the other
# classes' sets on the packed path, split-K with 4 slices and with 32 and
# 64, on the shapes whose plan is open (outputs up to 4096^2, squares up
# to 2048^3; the big updates and squares keep the large set, which the
# first sweep timed in D).  The checks' reference copies of a real GEMM's
# operands are now plain copies (tests/common/spec.c), which was most of
# the host's time per case.  About 4 minutes: no timed run starts after
# 300 s.  From the repository root, the build of branch plan6 carried in
# .device-carry/build:
#     bash bench/results/h100/session6/plan_sweep2.sh
# Outside bench/gpu_run.sh it runs itself through it (device.sh).  Writes
# $OUT/sweep2/{sweep.csv,sweep.md,logs/} and prints the table last.
set -u
source bench/results/h100/session6/device.sh
SHAPES=4096x4096x64,4096x4096x256,8192x64x8192,64x8192x8192,16384x128x4096,128x8192x8192:TN
SHAPES+=,64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN
SHAPES+=,32x32x32,64x64x64,128x128x128,256x256x256,512x512x512,1024x1024x1024,2048x2048x2048
export SWEEP_ALTS="small/packed skinny/packed deepk/packed large/splitk2 large/splitk4 small/splitk4 skinny/splitk4
    deepk/splitk4 skinny/splitk16 large/splitk32 small/splitk32 deepk/splitk32 deepk/splitk64 large/direct"
SWEEP_BUDGET=300 SWEEP_TIMEOUT=120 SWEEP_REPS=5 timeout 560 bash bench/plan_sweep.sh "$BUILD" "$OUT/sweep2" "$SHAPES"
echo "plan sweep 2 exit $?"
