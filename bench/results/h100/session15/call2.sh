#!/bin/bash
# Session 15, H100, call 2 (bench/NOTES.md section 39), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session15/call2.sh"
# 1. The test suite's second part (the twelve real LAPACK testers, every
#    call on the device) on the tree with the S large row at async 2;
# 2. NVIDIA's build report (-cl-nv-verbose) of the S large set with async
#    0, 2 and 3: registers and local memory;
# 3. async on the S small, skinny, deepk and medium sets, on their shapes,
#    against 0, alternating while time is left, every result checked.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call2; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call2.tgz -C /tmp call2; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

bash bench/results/h100/session7/suite.sh part2 > $R/suite-part2.txt 2>&1
echo "part2 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack

for a in 0 2 3; do
    GPUBLAS3_CACHE_DIR=/tmp/cache-nv$a GPUBLAS3_BUILD_LOG=1 GPUBLAS3_CL_OPTIONS=-cl-nv-verbose \
        GPUBLAS3_PARAMS="s:large:async=$a" timeout 30 $B --shapes 2048x2048x2048 --precisions s --peers gpublas3 \
        --reps 3 > $R/nv-async$a.txt 2>&1
    echo "nv async=$a exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
pack

export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
OT="256x256x256,512x512x512,1024x1024x1024,1536x1536x1536,4096x4096x64,4096x4096x128,8192x64x8192,64x8192x8192,64x64x65536,512x512x8192:TN"
for round in 1 2 3; do
    for v in 0 1; do
        [ $SECONDS -gt 530 ] && break 2
        P="s:medium:async=3;s:small:async=2;s:skinny:async=2;s:deepk:async=2"
        [ $v = 0 ] && P="s:medium:async=0"
        GPUBLAS3_PARAMS="$P" timeout 25 $B --shapes $OT --precisions s --peers gpublas3 --reps 7 --sample 256 \
            --csv $R/other-$v-$SECONDS.csv > $R/other-$v-$SECONDS.txt 2>&1
        echo "other async $v exit $? at ${SECONDS} s" | tee -a $R/exit.txt
        pack
    done
done
grep -h "checked against\|FAIL\|ERROR" $R/*.txt | sort | uniq -c | head
pack
