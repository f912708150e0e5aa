#!/bin/bash
# Session 19, H100, call 5 (bench/NOTES.md section 43), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session19/call5.sh"
# Why S TRMM's band launch at 1024 takes 0.9 of GEMM's launch (D: 0.6)
# and S SYRK's triangle 0.78: the medium sets' swz (1) against 2 (no
# swizzle in a band's launch) and 0, on GEMM, SYRK, TRMM 1024 and 1536,
# three rounds in turn; NVIDIA's register counts of every build the
# routines make at 1024 on the rows (fresh cache, -cl-nv-verbose).
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=/tmp/call5; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call5.tgz -C /tmp call5; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 90 $B $ARGS > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
}
for p in s d; do
    rm -rf /tmp/fresh
    GPUBLAS3_CACHE_DIR=/tmp/fresh GPUBLAS3_BUILD_LOG=1 GPUBLAS3_CL_OPTIONS=-cl-nv-verbose CUDA_CACHE_DISABLE=1 \
        GPUBLAS3_VERBOSE=1 timeout 90 $B --routines gemm,syrk,trmm --sizes 1024 --precisions $p --peers gpublas3 \
        --reps 1 > $R/nv-$p.txt 2>&1
    echo "nv $p exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
pack
T="GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1"
RA="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 3"
ARGS="$RA" run tr-row $T
ARGS="$RA" run tr-swz2 $T GPUBLAS3_PARAMS="medium:swz=2"
ARGS="$RA" run tr-swz0 $T GPUBLAS3_PARAMS="medium:swz=0"
pack
RW="--routines gemm,syrk,trmm --sizes 1024,1536 --precisions s,d --peers gpublas3 --reps 9"
for round in 1 2 3; do
    ARGS="$RW --csv $R/w-row-$round.csv" run w-row
    ARGS="$RW --csv $R/w-swz2-$round.csv" run w-swz2 GPUBLAS3_PARAMS="medium:swz=2"
    ARGS="$RW --csv $R/w-swz0-$round.csv" run w-swz0 GPUBLAS3_PARAMS="medium:swz=0"
    pack
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
