#!/bin/bash
# Session 19, H100, call 4 (bench/NOTES.md section 43), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session19/call4.sh"
# The tree with kreuse (the D large row: 2) and the reduction's one-column
# loop of its own:
# 1. each step's device time on deep K and the 1024 routines (trace);
# 2. D deep K wall times, plan against every k-contiguous operand read in
#    place (GPUBLAS3_INPLACE=2, the old plan of these shapes), two rounds;
# 3. the suite's first part (session7/suite.sh part1).
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=/tmp/call4; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call4.tgz -C /tmp call4; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 90 $B $ARGS > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
}
T="GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1"
DK="--shapes 64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN --peers gpublas3 --sample 256"
ARGS="$DK --precisions s,d --reps 3" run tr-dk $T
ARGS="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 3" run tr-r $T
for round in 1 2; do
    ARGS="$DK --precisions d --reps 7 --csv $R/dk-plan-$round.csv" run dk-plan
    ARGS="$DK --precisions d --reps 7 --csv $R/dk-in2-$round.csv" run dk-in2 GPUBLAS3_INPLACE=2
done
pack
cd /work/main && bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
echo "suite part1 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
tail -25 $R/suite-part1.txt
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
