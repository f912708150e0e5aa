#!/bin/bash
# Session 14, H100, call 1 (bench/NOTES.md section 38; ran past the 600 s
# limit with the outputs in $OUT unpacked: only part 3's 128x64 and
# 128x128 files and the progress log came back; call2.sh redoes it smaller), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session14/call1.sh"
# 1. whether Nsight Compute sees NVIDIA's OpenCL kernels at all;
# 2. GPUBLAS3_TRACE on the suite's shapes that miss 0.8x cuBLAS: each
#    command's device time and the gap before it (plans printed too);
# 3. D updates on other parameter sets of the large class (GPUBLAS3_PARAMS),
#    every result checked, gpublas3 alone, median of 5;
# 4. the 64-wide outputs against the slice count, with the k-contiguous
#    operand in place or packed (GPUBLAS3_SPLITS x GPUBLAS3_INPLACE).
# Writes $OUT/call1.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call1; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

# 1. ncu on an OpenCL program
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" > $R/ncu.txt
[ -n "$NCU" ] && timeout 90 $NCU --clock-control none --metrics gpu__time_duration.sum -c 4 \
    $B --shapes 512x512x512 --precisions s --peers gpublas3 --reps 1 >> $R/ncu.txt 2>&1
echo "ncu exit $? at ${SECONDS} s" | tee -a $R/exit.txt

# 2. traces
TR="256x256x256,512x512x512,1024x1024x1024,2048x2048x2048,4096x4096x64,8192x8192x256,8192x64x8192,64x8192x8192,128x8192x8192:TN,64x64x65536,128x128x32768:TN,512x512x8192:TN"
for p in s d; do
    GPUBLAS3_VERBOSE=1 GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 timeout 120 $B --shapes $TR --precisions $p \
        --peers gpublas3 --reps 3 > $R/trace-$p.txt 2>&1
    echo "trace $p exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done

# 3. D updates on other large sets (fields: mwg,nwg,kwg,mdimc,ndimc,vwm,vwn,kwi,sa,sb,db,pad,mma)
UP="4096x4096x64,4096x4096x256,8192x8192x128,8192x8192x256,8192x8192x512,8192x8192x256:NT,2048x2048x2048"
f() { echo "mwg=$1,nwg=$2,kwg=$3,mdimc=$4,ndimc=$5,vwm=$6,vwn=$7,kwi=$8,sa=1,sb=1,db=$9,pad=4,mma=${10}"; }
declare -A SETS=(
  [row]=""
  [medium]="$(f 64 64 16 4 1 1 1 1 1 3)"
  [k16nodb]="$(f 64 128 16 2 4 2 2 1 0 3)"
  [s2row]="$(f 64 128 16 2 4 2 2 4 0 2)"
  [128x64]="$(f 128 64 8 4 2 2 2 1 1 3)"
  [128x128]="$(f 128 128 8 4 4 2 2 1 1 3)"
  [64x64w4]="$(f 64 64 8 2 2 2 2 1 1 3)"
  [128x64k16]="$(f 128 64 16 4 2 2 2 1 0 3)"
)
for round in 1 2; do
  for name in row medium k16nodb s2row 128x64 128x128 64x64w4 128x64k16; do
    v=${SETS[$name]}
    GPUBLAS3_PARAMS=${v:+d:large:$v} GPUBLAS3_SHAPE=large timeout 100 $B --shapes $UP --precisions d \
        --peers gpublas3 --reps 5 --csv $R/dset-$name-$round.csv > $R/dset-$name-$round.txt 2>&1
    echo "dset $name $round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
  done
done

# 4. 64-wide outputs: slices x in place
W="8192x64x8192,64x8192x8192,4096x64x4096,64x4096x4096:TN"
for ip in 1 2 0; do
  for sp in 1 2 3 4 6 8 12 16; do
    if [ $sp = 1 ]; then force="GPUBLAS3_PLAN=packed"; else force="GPUBLAS3_SPLITS=$sp"; fi
    env $force GPUBLAS3_VERBOSE=1 GPUBLAS3_INPLACE=$ip timeout 60 $B --shapes $W --precisions s,d \
        --peers gpublas3 --reps 5 --csv $R/wide-ip$ip-sp$sp.csv > $R/wide-ip$ip-sp$sp.txt 2>&1
    echo "wide ip$ip sp$sp exit $? at ${SECONDS} s" | tee -a $R/exit.txt
  done
done
GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $W --precisions s,d --peers gpublas3 --reps 5 \
    --csv $R/wide-default.csv > $R/wide-default.txt 2>&1
echo "wide default exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -h "checked against" $R/*.txt | sort | uniq -c
tar czf $OUT/call1.tgz -C $OUT call1
