#!/bin/bash
# Session 14, H100, call 5 (bench/NOTES.md section 38), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session14/call5.sh"
# 1. cpref (C's tile prefetched into L2 that many k-tiles before a
#    work-group's last; 4096: at its first) on every set through
#    GPUBLAS3_PARAMS, on update shapes, S and D, gpublas3 alone, median
#    of 5, every result checked; 0 and 4 (the large rows' value in this
#    tree) twice.
# 2. The test suite's first part on this tree (session7/suite.sh part1).
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call5; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call5.tgz -C /tmp call5; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
UP="4096x4096x64,4096x4096x256,8192x8192x256"
for c in 0 4 1 16 4096 0 4; do
    GPUBLAS3_PARAMS="cpref=$c" timeout 60 $B --shapes $UP --precisions s,d --peers gpublas3 --reps 5 \
        --csv $R/up-$c-$SECONDS.csv > $R/up-$c-$SECONDS.txt 2>&1
    echo "up cpref=$c exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
done
grep -h "checked against" $R/*.txt | sort | uniq -c
pack
bash bench/results/h100/session7/suite.sh part1
