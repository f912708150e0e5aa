#!/bin/bash
# Session 19, H100, call 6 (bench/NOTES.md section 43), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session19/call6.sh"
# Which set and how many slices for deep K (0.5-0.75 of cuBLAS) and the
# 1024-1536 squares (0.66-0.75): the plan against every class's set
# forced (GPUBLAS3_SHAPE) and the plan's set split in 16 and 32, two
# rounds in turn, wall time, every result checked (leading 256 columns).
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=/tmp/call6; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call6.tgz -C /tmp call6; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 90 $B $ARGS > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
}
DK="--shapes 64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN,1024x1024x1024,1536x1536x1536"
A="$DK --precisions s,d --peers gpublas3 --reps 7 --sample 256"
for round in 1 2; do
    ARGS="$A --csv $R/k-plan-$round.csv" run plan GPUBLAS3_VERBOSE=1
    for s in medium small large deepk; do
        ARGS="$A --csv $R/k-$s-$round.csv" run $s GPUBLAS3_SHAPE=$s GPUBLAS3_VERBOSE=1
    done
    for n in 16 32; do
        ARGS="$A --csv $R/k-split$n-$round.csv" run split$n GPUBLAS3_SPLITS=$n GPUBLAS3_VERBOSE=1
    done
    pack
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
