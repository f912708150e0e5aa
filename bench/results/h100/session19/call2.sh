#!/bin/bash
# Session 19, H100, call 2 (bench/NOTES.md section 43), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session19/call2.sh"
# The copy kernel issuing a work-item's reads before its tile stores, and
# the reduction summing 4 columns a work-item in work-groups of 64 x 4
# (.device-carry/new) against the landed code (.device-carry/build):
# 1. each step's device time (GPUBLAS3_TRACE=1) on GEMM 512^3-4096^3,
#    deep K and the 1024 routines, both builds;
# 2. wall times of the same, the builds alternating, three rounds.
set -u
OUT=${OUT:-/tmp/out}
R=/tmp/call2; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call2.tgz -C /tmp call2; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
L0=$LD_LIBRARY_PATH
bench() {  # bench BUILD NAME ARGS...: one run of BUILD's bench with its own library and cache
    local b=$1 name=$2; shift 2
    local BD=/work/main/.device-carry/$b
    GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache LD_LIBRARY_PATH=$BD:$L0 timeout 90 $BD/bench/gpublas3-bench "$@" \
        > $R/$name-$b-$SECONDS.txt 2>&1
    echo "$name $b exit $? at ${SECONDS} s" | tee -a $R/exit.txt
}
SQ="512x512x512,1024x1024x1024,2048x2048x2048,4096x4096x4096"
DK="64x64x65536,256x256x16384,512x512x8192:TN"
for b in build new; do
    for p in s d; do
        GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 bench $b trace-$p --shapes $SQ,$DK --precisions $p \
            --peers gpublas3 --reps 3 --sample 256
        GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 bench $b trace-r-$p --routines syrk,trmm,symm \
            --sizes 1024 --precisions $p --peers gpublas3 --reps 3
    done
    pack
done
for round in 1 2 3; do
    [ $SECONDS -gt 420 ] && break
    for b in build new; do
        bench $b sq --shapes $SQ,$DK,8192x8192x256,16384x128x4096,8192x64x8192 --precisions s,d --peers gpublas3 \
            --reps 9 --sample 256 --csv $R/sq-$b-$round.csv
        bench $b r --routines gemm,syrk,trmm,symm,syr2k --sizes 1024 --precisions s,d --peers gpublas3 --reps 9 \
            --csv $R/r-$b-$round.csv
    done
    pack
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
