#!/bin/bash
# Session 6, H100: the plan sweep of issue 10 (branch plan6,
# bench/plan_sweep.py): every shape of the GPU suite, S and D, timed under
# each shape class's set on the packed path, on split-K with 2, 4, 8 and 16
# slices (outputs up to 2048^2) and on the direct kernel (up to 1024^3
# multiply-adds), next to the default plan, each checked first.  About
# 5 minutes: no timed run starts after 300 s.  From the repository root,
# with the build of branch plan6 carried in .device-carry/build:
#     bash bench/results/h100/session6/plan_sweep.sh
# Outside bench/gpu_run.sh it runs itself through it (device.sh).  Writes
# $OUT/sweep/{sweep.csv,sweep.md,logs/} and prints the table last.
set -u
source bench/results/h100/session6/device.sh
SWEEP_BUDGET=300 SWEEP_TIMEOUT=100 SWEEP_REPS=5 timeout 560 bash bench/plan_sweep.sh "$BUILD" "$OUT/sweep" shapes
echo "plan sweep exit $?"
