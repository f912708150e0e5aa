#!/bin/bash
# Session 20, H100, call 1 (bench/NOTES.md section 44), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session20/call1.sh"
# On aba58f8 (session 19's final tree):
# 1. the S medium set at 512 and 1024 (GEMM, SYRK, TRMM; section 43's
#    next item 2): the row, double buffering, a cp.async ring, 128- and
#    256-work-item shapes, 16-deep tiles; two rounds, wall times;
# 2. the same variants' register counts (NVIDIA's build log);
# 3. TRMM with the band's tile map off (GPUBLAS3_TILEMAP=0), traced.
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=/tmp/call1; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call1.tgz -C /tmp call1; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 90 $B $ARGS > $R/$name.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
}
V=(base "db=1" "async=2" "kwg=16" "kwg=16,db=1"
   "mdimc=16,ndimc=16" "mdimc=16,ndimc=16,db=1" "mdimc=16,ndimc=16,async=2"
   "mdimc=16,ndimc=8" "mdimc=16,ndimc=8,db=1" "mdimc=16,ndimc=8,async=2"
   "mwg=128,mdimc=16,ndimc=8" "mwg=128,mdimc=16,ndimc=8,db=1")
RT="--routines gemm,syrk,trmm --sizes 512,1024 --precisions s --peers gpublas3 --reps 9"
for round in 1 2; do
    for i in "${!V[@]}"; do
        v=${V[$i]}; p="s:medium:$v"; [ "$v" = base ] && p=""
        ARGS="$RT --csv $R/v$i-r$round.csv" run v$i-r$round GPUBLAS3_PARAMS="$p"
    done
    pack
done
for i in 0 1 5 8 11; do
    v=${V[$i]}; p="s:medium:$v"; [ "$v" = base ] && p=""
    ARGS="--shapes 1024x1024x1024 --precisions s --peers gpublas3 --reps 1" run regs$i \
        GPUBLAS3_PARAMS="$p" GPUBLAS3_CACHE_DIR=/tmp/fresh$i GPUBLAS3_BUILD_LOG=1 \
        GPUBLAS3_CL_OPTIONS=-cl-nv-verbose CUDA_CACHE_DISABLE=1
done
T="GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1"
ARGS="--routines gemm,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 3" run tr-plan $T
ARGS="--routines gemm,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 3" run tr-tm0 $T GPUBLAS3_TILEMAP=0
for round in 1 2; do
    ARGS="--routines trmm --sizes 1024,2048 --precisions s,d --peers gpublas3 --reps 9 --csv $R/tm-plan-$round.csv" run tm-plan-$round
    ARGS="--routines trmm --sizes 1024,2048 --precisions s,d --peers gpublas3 --reps 9 --csv $R/tm0-$round.csv" run tm0-$round GPUBLAS3_TILEMAP=0
done
grep -h "checked against\|FAIL\|ERROR\|rror\|refuse" $R/*.txt | sort | uniq -c | head -30
pack
