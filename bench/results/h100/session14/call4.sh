#!/bin/bash
# Session 14, H100, call 4 (bench/NOTES.md section 38), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session14/call4.sh"
# 1. The update shapes with C's tile prefetched into L2 before the k loop
#    (kernels/gemm.cl's CPREF experiment, GPUBLAS3_CL_OPTIONS=-DCPREF=1)
#    against without, S and D, two rounds alternating, gpublas3 alone,
#    median of 5, every result checked.
# 2. NVIDIA's register counts of the D and S large sets with and without.
# 3. Traces of the short shapes with the host's enqueue times.
# Outputs packed into $OUT/call4.tgz after every part.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call4; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call4.tgz -C /tmp call4; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
UP="4096x4096x64,4096x4096x256,8192x8192x128,8192x8192x256,8192x8192x512,8192x8192x256:NT,4096x4096x4096"
for round in 1 2; do
  for v in base cpref; do
    o=""; [ $v = cpref ] && o="-DCPREF=1"
    GPUBLAS3_CL_OPTIONS="$o" timeout 60 $B --shapes $UP --precisions s,d --peers gpublas3 --reps 5 \
        --csv $R/up-$v-$round.csv > $R/up-$v-$round.txt 2>&1
    echo "up $v $round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
  done
  pack
done
for o in "" "-DCPREF=1"; do
  GPUBLAS3_CACHE_DIR=/tmp/nocache GPUBLAS3_BUILD_LOG=1 GPUBLAS3_CL_OPTIONS="-cl-nv-verbose $o" timeout 60 $B \
      --shapes 4096x4096x256 --precisions s,d --peers gpublas3 --reps 1 > "$R/regs$o.txt" 2>&1
done
echo "regs at ${SECONDS} s" | tee -a $R/exit.txt; pack
SH="512x512x512,1024x1024x1024,4096x4096x64,8192x64x8192"
for p in s d; do
    GPUBLAS3_VERBOSE=1 GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 timeout 40 $B --shapes $SH \
        --precisions $p --peers gpublas3 --reps 3 > $R/trace-$p.txt 2>&1
    echo "trace $p exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
grep -h "checked against" $R/*.txt | sort | uniq -c
pack
