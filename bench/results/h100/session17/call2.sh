#!/bin/bash
# Session 17, H100, call 2 (bench/NOTES.md section 41), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session17/call2.sh"
# 1. D NT updates (call 1: B read in place n-contiguous costs K = 256 a
#    quarter, K = 1024 nothing, ld and grid order no matter): NVIDIA's
#    build report of the plan's kernels (NT: A and B in place; NN: A) with
#    C's prefetch and without (d:large:cpref=0), then the plan, cpref=0 and
#    both packed (GPUBLAS3_INPLACE=0) on K = 256 and 512, two rounds;
# 2. every routine at 1024 and 4096, S and D, on the S large row's swz 2;
# 3. SYRK and TRMM at 1024 (the routines' misses there) with GEMM: the
#    medium and small classes, split in 1, 2, 4, forced, one round.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call2; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call2.tgz -C /tmp call2; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

i=0
for P in "" "d:large:cpref=0"; do
    i=$((i + 1))
    GPUBLAS3_CACHE_DIR=/tmp/cache-nv$i GPUBLAS3_BUILD_LOG=1 GPUBLAS3_CL_OPTIONS=-cl-nv-verbose CUDA_CACHE_DISABLE=1 \
        GPUBLAS3_PARAMS="$P" timeout 60 $B --shapes 8192x8192x256:NT,8192x8192x256:NN,8192x8192x256:TT --precisions d \
        --peers gpublas3 --reps 2 --sample 64 > $R/nv-d$i.txt 2>&1
    echo "nv d$i ($P) exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
pack
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 90 $B $ARGS --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/$name-$SECONDS.csv > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
}
D1="--shapes 8192x8192x256:NT,8192x8192x256:TT,8192x8192x256:NN,4096x4096x256:NT,8192x8192x512:NT,4096x4096x512:NT,8192x8192x128:NT --precisions d"
for round in 1 2; do
    [ $SECONDS -gt 200 ] && break
    ARGS="$D1" run dplan
    ARGS="$D1" run dcpref0 GPUBLAS3_PARAMS="d:large:cpref=0"
    ARGS="$D1" run dpacked GPUBLAS3_INPLACE=0
done
ARGS="--routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --precisions s,d" run routines
for sh in medium small; do
    for sp in 1 2 4; do
        [ $SECONDS -gt 500 ] && break 2
        E="GPUBLAS3_SPLITS=$sp"; [ $sp = 1 ] && E="GPUBLAS3_PLAN=packed"
        ARGS="--routines gemm,syrk,trmm --sizes 1024 --precisions s,d" run r1k-$sh-$sp GPUBLAS3_SHAPE=$sh $E
    done
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
