#!/bin/bash
# Session 20, H100, call 5 (bench/NOTES.md section 44), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session20/call5.sh"
# Call 2's suite had D 64x64x65536 at 92 us a call against 65-67 in session
# 19's call 4 (same device code): the deep-K shapes and 64^3 under the
# suite's settings (--reps 5, full check) and call 4's (--reps 7 --sample
# 256), three rounds alternating, then one traced run.
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=/tmp/call5; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call5.tgz -C /tmp call5; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
DK="--shapes 64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN,64x64x64 --precisions s,d --peers gpublas3"
for round in 1 2 3; do
    timeout 40 $B $DK --reps 5 --csv $R/suite-$round.csv > $R/suite-$round.txt 2>&1
    echo "suite-$round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    timeout 40 $B $DK --reps 7 --sample 256 --csv $R/c4-$round.csv > $R/c4-$round.txt 2>&1
    echo "c4-$round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
pack
GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 timeout 40 $B $DK --reps 3 > $R/trace.txt 2>&1
echo "trace exit $? at ${SECONDS} s" | tee -a $R/exit.txt
gzip -9 $R/trace.txt
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
