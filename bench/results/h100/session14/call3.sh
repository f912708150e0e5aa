#!/bin/bash
# Session 14, H100, call 3 (bench/NOTES.md section 38): where the short
# calls' time goes between launches, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session14/call3.sh"
# Traces (GPUBLAS3_TRACE on a profiling queue) of the multi-launch shapes
# under: the default; GPUBLAS3_CHAIN=order (no wait lists on an in-order
# queue); v2 = .device-carry/v2's library (the reduction's work-groups
# 32 x 8 instead of 16 x 4, nothing else); other copy work-groups
# (GPUBLAS3_PARAMS copy_ts, copy_rs).  Then wall times (no profiling)
# of the same shapes, default / order / v2 + order, two rounds.
# Outputs packed into $OUT/call3.tgz after every part.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call3; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call3.tgz -C /tmp call3; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
V2=/work/main/.device-carry/v2
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
SH="512x512x512,1024x1024x1024,4096x4096x64,8192x64x8192,64x64x65536,128x128x32768:TN,2048x2048x2048"
declare -A CFG=(
  [default]=""
  [order]="GPUBLAS3_CHAIN=order"
  [v2]="LD_LIBRARY_PATH=$V2:$LD_LIBRARY_PATH"
  [copy32x8]="GPUBLAS3_PARAMS=s:copy_ts=32,copy_rs=8;d:copy_ts=32,copy_rs=8"
  [copy32x4]="GPUBLAS3_PARAMS=s:copy_ts=32,copy_rs=4;d:copy_ts=32,copy_rs=4"
  [copy16x16]="GPUBLAS3_PARAMS=s:copy_ts=16,copy_rs=16;d:copy_ts=16,copy_rs=16"
)
for name in default order v2 copy32x8 copy32x4 copy16x16; do
  for p in s d; do
    env ${CFG[$name]} GPUBLAS3_VERBOSE=1 GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 timeout 40 $B --shapes $SH \
        --precisions $p --peers gpublas3 --reps 3 > $R/trace-$name-$p.txt 2>&1
    echo "trace $name $p exit $? at ${SECONDS} s" | tee -a $R/exit.txt
  done
  pack
done
for round in 1 2; do
  for name in default order v2order; do
    if [ $name = v2order ]; then e="GPUBLAS3_CHAIN=order LD_LIBRARY_PATH=$V2:$LD_LIBRARY_PATH"; else e=${CFG[$name]}; fi
    env $e timeout 40 $B --shapes $SH --precisions s,d --peers gpublas3 --reps 9 \
        --csv $R/wall-$name-$round.csv > $R/wall-$name-$round.txt 2>&1
    echo "wall $name $round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
  done
  pack
done
grep -h "checked against" $R/*.txt | sort | uniq -c
pack
