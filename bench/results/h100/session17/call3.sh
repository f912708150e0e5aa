#!/bin/bash
# Session 17, H100, call 3 (bench/NOTES.md section 41), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session17/call3.sh"
# On the tree where B' is packed where a launch prefetches C (packed.c):
# 1. the test suite's first part (session7/suite.sh part1), with cl_plan's
#    H100 test of that rule;
# 2. D and S NT/TT updates and NN, the plan against both packed
#    (GPUBLAS3_INPLACE=0), two rounds in turn.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call3; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call3.tgz -C /tmp call3; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
echo "part1 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
run() {  # name, then env assignments; $ARGS the bench's arguments
    local name=$1; shift
    env "$@" timeout 90 $B $ARGS --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/$name-$SECONDS.csv > $R/$name-$SECONDS.txt 2>&1
    echo "$name exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
}
D1="--shapes 8192x8192x256:NT,8192x8192x256:TT,8192x8192x256:NN,4096x4096x256:NT,8192x8192x512:NT,4096x4096x512:NT,8192x8192x128:NT,4096x4096x64:NT --precisions d,s"
for round in 1 2; do
    [ $SECONDS -gt 480 ] && break
    ARGS="$D1" run plan
    ARGS="$D1" run packed GPUBLAS3_INPLACE=0
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
