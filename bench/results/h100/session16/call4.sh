#!/bin/bash
# Session 16, H100, call 4 (bench/NOTES.md section 40), the last device
# seconds, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session16/call4.sh"
# 1. S TRMM and GEMM at 4096 with the S large row swizzled (now) and not
#    (s:large:swz=0), in turn (call 3: TRMM 0.80x GEMM, call 2 0.99x);
# 2. D 8192^2x256 NT with the D large row at 8-deep swizzled tiles
#    (kwg 8): whether the tile's rows are what B in place costs.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call4; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call4.tgz -C /tmp call4; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
for v in swz plain swz plain; do
    [ $SECONDS -gt 120 ] && break
    P=""; [ $v = plain ] && P="s:large:swz=0"
    GPUBLAS3_PARAMS="$P" timeout 40 $B --routines gemm,trmm --sizes 4096 --precisions s --peers gpublas3 --reps 5 \
        --sample 256 --side L,R --uplo U,L --csv $R/trmm-$v-$SECONDS.csv > $R/trmm-$v-$SECONDS.txt 2>&1
    echo "trmm $v exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
done
[ $SECONDS -lt 140 ] && GPUBLAS3_PARAMS="d:large:kwg=8" timeout 25 $B --shapes 8192x8192x256:NT,8192x8192x256 \
    --precisions d --peers gpublas3 --reps 5 --sample 256 --csv $R/nt-k8.csv > $R/nt-k8.txt 2>&1
echo "nt k8 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack
