#!/bin/bash
# Session 17, H100, call 4 (bench/NOTES.md section 41), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session17/call4.sh"
# 1. deep K (the suite's 0.42-0.73 of cuBLAS): the plan against operands
#    in place only along m, n (GPUBLAS3_INPLACE=1), none (=0), and the
#    plan's class split in 16 and 64, two rounds in turn;
# 2. swz with async on the D small and skinny sets, swz on the S skinny
#    set and the S deepk set at kwg 32, on their shapes, against the rows;
# 3. issue 12: reference LAPACK's DPOTRF, DGETRF, DGEQRF at n = 8192 with
#    gpublas3 preloaded, OpenBLAS's own LAPACK and reference LAPACK over
#    OpenBLAS, best of 2 (bench/lapack_e2e.sh), on the D rows of now.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call4; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call4.tgz -C /tmp call4; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 60 $B $ARGS --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/$name-$SECONDS.csv > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
}
DK="--shapes 64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN --precisions s,d"
for round in 1 2; do
    [ $SECONDS -gt 200 ] && break
    ARGS="$DK" run kplan
    ARGS="$DK" run kin1 GPUBLAS3_INPLACE=1
    ARGS="$DK" run kin0 GPUBLAS3_INPLACE=0
    ARGS="$DK" run ks16 GPUBLAS3_SPLITS=16
    ARGS="$DK" run ks64 GPUBLAS3_SPLITS=64
done
DS="--shapes 256x256x256,512x512x512,8192x32x8192,32x8192x8192,16384x32x4096 --precisions d"
SS="--shapes 8192x32x8192,32x8192x8192,16384x32x4096,64x64x65536 --precisions s"
for round in 1 2; do
    [ $SECONDS -gt 300 ] && break
    ARGS="$DS" run drow
    ARGS="$DS" run dswz GPUBLAS3_PARAMS="d:small:pad=0,async=2,swz=1;d:skinny:pad=0,async=2,swz=1"
    ARGS="$SS" run srow
    ARGS="$SS" run sswz GPUBLAS3_PARAMS="s:skinny:swz=1;s:deepk:kwg=32,swz=1"
done
cd /work/main
if [ $SECONDS -lt 400 ]; then
    CONFIGS="gpublas3 openblas reference" DEBROOT=/tmp/debs timeout 180 sh bench/lapack_e2e.sh $BD $R/e2e \
        dpotrf,dgetrf,dgeqrf 8192 2 > $R/e2e.log 2>&1
    echo "e2e exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    cat $R/e2e/table.txt 2>/dev/null
fi
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
