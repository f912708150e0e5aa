#!/bin/bash
# Session 19, H100, call 3 (bench/NOTES.md section 43), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session19/call3.sh"
# On the tree with the copy kernel's and the reduction's change (43b7d51,
# the reduction keeping one element a work-item on small outputs):
# 1. the routines at 1024 (and GEMM) under unsplit (GPUBLAS3_PLAN=packed) and forced splits 2, 4, 8: each
#    step's device time, to see whether a band's launch shortens with its
#    slices (section 41: the longest tile sets it);
# 2. GEMM 512-2048 with every operand read in place (GPUBLAS3_INPLACE=2:
#    no copy launch) against the plan, wall time, two rounds;
# 3. D deep K on the medium and deepk sets and with k-contiguous operands
#    packed (GPUBLAS3_INPLACE=1) against the plan, traced and wall;
# 4. deep K's reduction back at its old time (trace).
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=/tmp/call3; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call3.tgz -C /tmp call3; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 90 $B $ARGS > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
}
T="GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1"
ARGS="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 3" run tr-split1 $T GPUBLAS3_PLAN=packed
for s in 2 4 8; do
    ARGS="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 3" run tr-split$s $T GPUBLAS3_SPLITS=$s
done
ARGS="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 3" run tr-plan $T
pack
DK="--shapes 64x64x65536,256x256x16384,512x512x8192:TN,128x128x32768:TN --precisions d --peers gpublas3 --sample 256"
ARGS="$DK --reps 3" run dk-plan $T
ARGS="$DK --reps 3" run dk-medium $T GPUBLAS3_SHAPE=medium
ARGS="$DK --reps 3" run dk-deepk $T GPUBLAS3_SHAPE=deepk
ARGS="$DK --reps 3" run dk-in1 $T GPUBLAS3_INPLACE=1
pack
SQ="--shapes 256x256x256,512x512x512,1024x1024x1024,2048x2048x2048 --precisions s,d --peers gpublas3 --reps 9"
for round in 1 2; do
    ARGS="$SQ --csv $R/sq-plan-$round.csv" run sq-plan
    ARGS="$SQ --csv $R/sq-in2-$round.csv" run sq-in2 GPUBLAS3_INPLACE=2
    ARGS="$DK --reps 7 --csv $R/dk-plan-$round.csv" run dkw-plan
    ARGS="$DK --reps 7 --csv $R/dk-medium-$round.csv" run dkw-medium GPUBLAS3_SHAPE=medium
    ARGS="$DK --reps 7 --csv $R/dk-in1-$round.csv" run dkw-in1 GPUBLAS3_INPLACE=1
    ARGS="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 9 --csv $R/r-plan-$round.csv" run r-plan
    ARGS="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 9 --csv $R/r-split4-$round.csv" run r-split4 GPUBLAS3_SPLITS=4
    pack
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
