#!/bin/bash
# Session 16, H100, call 1 (bench/NOTES.md section 40), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session16/call1.sh"
# 1. D's drop since session 13: HEAD (cpref only in K <= 512 unsplit
#    launches that read C), HEAD with d:large:cpref=0, and the build
#    before that restriction (09f73ed, .device-carry/build-old), twice in
#    turn, on the D large set's shapes, every result checked;
# 2. the D large set as 16-deep tiles at pad 0 with swizzled rows (swz),
#    staged by cp.async (async 2) or in registers (async 0), on mma
#    m16n8k8 (3, the row's) and m16n8k16 (4), against the row, twice in
#    turn; NVIDIA's build report of each;
# 3. the S 64-wide outputs on the skinny set with async 2 and on the
#    large set, against their plan (the medium set).
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
OLD=/work/main/.device-carry/build-old
R=/tmp/call1; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call1.tgz -C /tmp call1; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
LD_LIBRARY_PATH=$OLD:$LD_LIBRARY_PATH ldd $OLD/bench/gpublas3-bench | grep gpublas3 > $R/ldd-old.txt
ldd $B | grep gpublas3 > $R/ldd-head.txt

DS="8192x8192x8192,4096x4096x4096,2048x2048x2048,128x8192x8192:TN,8192x8192x256,4096x4096x256"
run() {  # name, then env assignments; the bench binary is $BIN
    local name=$1; shift
    env "$@" timeout 60 $BIN --shapes $SH --precisions $PR --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/$name-$SECONDS.csv > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
}
SH=$DS; PR=d
for round in 1 2; do
    BIN=$B run head GPUBLAS3_CACHE_DIR=/tmp/cache-head
    BIN=$B run cpref0 GPUBLAS3_CACHE_DIR=/tmp/cache-head GPUBLAS3_PARAMS="d:large:cpref=0"
    BIN=$OLD/bench/gpublas3-bench run old GPUBLAS3_CACHE_DIR=/tmp/cache-old LD_LIBRARY_PATH=$OLD:$LD_LIBRARY_PATH
done

V1="d:large:kwg=16,pad=0,async=2,swz=1"
V2="d:large:kwg=16,pad=0,async=2,swz=1,mma=4"
V3="d:large:kwg=16,pad=0,async=0,swz=1"
V4="d:large:kwg=16,pad=0,async=0,swz=1,mma=4"
i=0
for P in "$V1" "$V2" "$V3" "$V4"; do
    i=$((i + 1))
    GPUBLAS3_CACHE_DIR=/tmp/cache-nv$i GPUBLAS3_BUILD_LOG=1 GPUBLAS3_CL_OPTIONS=-cl-nv-verbose \
        GPUBLAS3_PARAMS="$P" timeout 30 $B --shapes 2048x2048x2048 --precisions d --peers gpublas3 \
        --reps 3 > $R/nv-v$i.txt 2>&1
    echo "nv v$i ($P) exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
pack
BIN=$B
for round in 1 2; do
    i=0
    for P in "$V1" "$V2" "$V3" "$V4"; do
        i=$((i + 1))
        [ $SECONDS -gt 420 ] && break 2
        run v$i GPUBLAS3_CACHE_DIR=/tmp/cache-head GPUBLAS3_PARAMS="$P"
    done
    run row GPUBLAS3_CACHE_DIR=/tmp/cache-head
done

SH="8192x64x8192,64x8192x8192,8192x128x8192,16384x128x4096"; PR=s
for round in 1 2; do
    [ $SECONDS -gt 500 ] && break
    run s64plan GPUBLAS3_CACHE_DIR=/tmp/cache-head
    run s64skinny GPUBLAS3_CACHE_DIR=/tmp/cache-head GPUBLAS3_SHAPE=skinny GPUBLAS3_PARAMS="s:skinny:async=2"
    run s64large GPUBLAS3_CACHE_DIR=/tmp/cache-head GPUBLAS3_SHAPE=large
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
