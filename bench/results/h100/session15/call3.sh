#!/bin/bash
# Session 15, H100, call 3 (bench/NOTES.md section 39): the final tree (the
# S large row at async 2), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session15/call3.sh"
# 1. the test suite's first part (session7/suite.sh part1; part 2 ran in
#    call 2 on the same library and rows: only the tuner changed since);
# 2. issue 10's shape suite, gpublas3 and CLBlast 1.5.3 in one run, cuBLAS
#    (no TF32) right after, every result checked first (as session 13's
#    call 8);
# 3. while time is left: the D large set with 16-deep tiles at pad 0 in
#    an async ring of 2 (one barrier per 16 k instead of 8; 48 KB), with
#    mma m16n8k8 and m16n8k16, against the row, every result checked.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call3; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call3.tgz -C /tmp call3; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &

bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
echo "part1 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack

timeout 330 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
echo "suite exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack
wait
timeout 80 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -E "checked|target met" $R/shapes.txt
pack

DS="4096x4096x4096,8192x8192x8192,8192x8192x256"
for v in row k16a2 k16a2m4 row k16a2; do
    [ $SECONDS -gt 540 ] && break
    case $v in
    row) P="" ;;
    k16a2) P="d:large:kwg=16,pad=0,async=2" ;;
    k16a2m4) P="d:large:kwg=16,pad=0,async=2,mma=4" ;;
    esac
    GPUBLAS3_PARAMS="$P" timeout 40 $B --shapes $DS --precisions d --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/dk16-$v-$SECONDS.csv > $R/dk16-$v-$SECONDS.txt 2>&1
    echo "d $v exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
done
pack
