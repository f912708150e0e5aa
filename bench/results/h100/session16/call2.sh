#!/bin/bash
# Session 16, H100, call 2 (bench/NOTES.md section 40), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session16/call2.sh"
# On the tree with the D large row at 16-deep swizzled tiles by cp.async:
# 1. the test suite's first part (session7/suite.sh part1);
# 2. every routine at n = 1024 and 4096, S and D, gpublas3 alone (issue
#    10's routine ratios against our GEMM), every result checked;
# 3. swz (and for D pad 0 and a cp.async ring of 2) on the other D sets
#    and on every S set, against the rows, on their shapes, in turn while
#    time is left, every result checked;
# 4. D 128x8192x8192 TN with B packed (GPUBLAS3_INPLACE=0) against read
#    in place k-contiguous (the plan).
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call2; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call2.tgz -C /tmp call2; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
echo "part1 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack

export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
timeout 90 $B --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --precisions s,d --peers gpublas3 \
    --reps 5 --sample 256 --csv $R/routines.csv > $R/routines.txt 2>&1
echo "routines exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack

run() {  # name, then env assignments
    local name=$1; shift
    env "$@" timeout 60 $B --shapes $SH --precisions $PR --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/$name-$SECONDS.csv > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
}
DV="d:medium:pad=0,vwm=2,vwn=2,async=2,swz=1;d:small:pad=0,async=2,swz=1;d:skinny:pad=0,async=2,swz=1;d:deepk:pad=0,async=2,swz=1"
SV="s:large:swz=1;s:medium:swz=1;s:skinny:swz=1;s:deepk:swz=1"
DSH="512x512x512,1024x1024x1024,1536x1536x1536,64x8192x8192,8192x64x8192,256x256x16384,512x512x8192:TN,128x128x32768:TN,64x64x65536"
SSH="8192x8192x8192,4096x4096x4096,2048x2048x2048,1024x1024x1024,8192x8192x256,512x512x512,256x256x16384,8192x64x8192,64x8192x8192"
for round in 1 2; do
    [ $SECONDS -gt 470 ] && break
    SH=$DSH PR=d run drow
    SH=$DSH PR=d run dswz GPUBLAS3_PARAMS="$DV"
    [ $SECONDS -gt 490 ] && break
    SH=$SSH PR=s run srow
    SH=$SSH PR=s run sswz GPUBLAS3_PARAMS="$SV"
done
for round in 1 2; do
    [ $SECONDS -gt 540 ] && break
    SH=128x8192x8192:TN,8192x8192x256:NT PR=d run tnplan
    SH=128x8192x8192:TN,8192x8192x256:NT PR=d run tnpacked GPUBLAS3_INPLACE=0
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
