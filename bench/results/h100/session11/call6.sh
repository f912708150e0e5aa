#!/bin/bash
# Session 11, H100, call 6: the plan sweep on the shapes call 4 left
# furthest from cuBLAS that a plan could move (through bench/gpu_run.sh):
#   bash bench/gpu_run.sh "bash bench/results/h100/session11/call6.sh"
# 1. the 64-wide outputs (medium set since session 10, split as the
#    medium rows aim: S 4, D 3 work-groups an SM) in 4, 8 and 16 slices,
#    and the skinny set's own split;
# 2. the small squares 512^3 and 1024^3 under the medium and small sets,
#    packed and split 2 and 4, and the large set split 4.
# Every result checked before it is timed (bench/plan_sweep.py).  Writes
# $OUT/call6.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call6; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
WIDE=${WIDE:-64x8192x8192,8192x64x8192,64x8192x8192:TN,64x16384x4096}
SQ=${SQ:-512x512x512,1024x1024x1024}
SWEEP_ALTS="medium/splitk4 medium/splitk8 medium/splitk16 skinny/splitk8 skinny/splitk16" SWEEP_SPLITK_MN=$((1 << 24)) \
    SWEEP_BUDGET=70 SWEEP_TIMEOUT=40 SWEEP_REPS=5 SWEEP_DEVICE=${GPUBLAS3_DEVICE:-gpu} \
    timeout 100 bash bench/plan_sweep.sh "$BD" "$R/wide" "$WIDE" > $R/wide.txt 2>&1
echo "wide sweep exit $? at ${SECONDS} s"
SWEEP_ALTS="medium/packed medium/splitk2 medium/splitk4 small/packed small/splitk2 small/splitk4 large/splitk4" \
    SWEEP_BUDGET=60 SWEEP_TIMEOUT=40 SWEEP_REPS=9 SWEEP_DEVICE=${GPUBLAS3_DEVICE:-gpu} \
    timeout 90 bash bench/plan_sweep.sh "$BD" "$R/sq" "$SQ" > $R/sq.txt 2>&1
echo "square sweep exit $? at ${SECONDS} s"
for f in wide sq; do cat $R/$f/sweep.md 2>/dev/null; done
tar czf $OUT/call6.tgz -C $OUT call6 && rm -rf $R
