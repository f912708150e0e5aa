#!/bin/bash
# Session 17, H100, call 1 (bench/NOTES.md section 41), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session17/call1.sh"
# 1. S large swz 2 (swizzled but in a band's launch: the row now) against
#    swz 0 (session 16's row) and swz 1 (everywhere): S GEMM squares, every
#    S routine at 4096 (TRMM's four side/triangle cases), two rounds in
#    turn; NVIDIA's build report (registers) of each, GEMM and TRMM;
# 2. D (and S) NT updates, B read in place with n contiguous: the plan,
#    both packed (GPUBLAS3_INPLACE=0), every ld 8 elements longer
#    (--ld-extra 8: off the power of two), the grid N-blocks first
#    (d:large:nfirst=1), two rounds in turn.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call1; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call1.tgz -C /tmp call1; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

i=0
for P in "" "s:large:swz=1" "s:large:swz=0"; do
    i=$((i + 1))
    GPUBLAS3_CACHE_DIR=/tmp/cache-nv$i GPUBLAS3_BUILD_LOG=1 GPUBLAS3_CL_OPTIONS=-cl-nv-verbose \
        GPUBLAS3_PARAMS="$P" timeout 40 $B --routines gemm,trmm --sizes 2048 --precisions s --peers gpublas3 \
        --reps 2 > $R/nv-s$i.txt 2>&1
    echo "nv s$i ($P) exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
pack
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 60 $B $ARGS --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/$name-$SECONDS.csv > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
}
S1="--shapes 8192x8192x8192,4096x4096x4096,2048x2048x2048,8192x8192x256 --precisions s"
S2="--routines symm,syrk,syr2k,trmm --sizes 4096 --precisions s --side L,R --uplo U,L"
for round in 1 2; do
    for v in swz2 swz0 swz1; do
        [ $SECONDS -gt 300 ] && break 2
        P=""; [ $v = swz0 ] && P="s:large:swz=0"; [ $v = swz1 ] && P="s:large:swz=1"
        ARGS="$S1" run sq-$v GPUBLAS3_PARAMS="$P"
        ARGS="$S2" run rt-$v GPUBLAS3_PARAMS="$P"
    done
done
D1="--shapes 8192x8192x256:NT,8192x8192x256:NN,8192x8192x256:TT,4096x4096x256:NT,8192x8192x1024:NT,8192x8192x8192:NT,2048x2048x2048:NT --precisions d"
S3="--shapes 8192x8192x256:NT,8192x8192x256:NN,4096x4096x256:NT --precisions s"
for round in 1 2; do
    [ $SECONDS -gt 480 ] && break
    ARGS="$D1" run dplan
    ARGS="$D1" run dpacked GPUBLAS3_INPLACE=0
    ARGS="$D1 --ld-extra 8" run dld8
    [ $SECONDS -gt 520 ] && break
    ARGS="$D1" run dnfirst GPUBLAS3_PARAMS="d:large:nfirst=1"
    ARGS="$S3" run splan
    ARGS="$S3" run spacked GPUBLAS3_INPLACE=0
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
