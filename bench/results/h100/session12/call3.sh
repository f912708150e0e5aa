#!/bin/bash
# Session 12, H100, call 3, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session12/call3.sh"
# 1. the leaf kernel's third version (call 2's second spilled in D: its
#    double-buffered panel took ~130 more registers): v1's update loop
#    (one slot's panel column at a time) with slots no row of which the
#    block updates skipped by the whole group, X read as vectors, the
#    next block's inverse and T loaded during the update, four partial
#    sums on the diagonal chains; and the leaf rule (leaf_rows: at most
#    2^20 rows x columns, at least 256 rows);
#    timed against the blocked path (trsm_leaf=0), n = 128 ... 4096, S and
#    D, left lower N, GEMM n^3 in the same runs, two rounds in opposite
#    orders; LAPACK's LU and Cholesky solves; every side/uplo/trans at 1024;
# 2. the medium set's medium_k (S updates of K <= 128 on the medium set)
#    against GPUBLAS3_SHAPE=large, alternating, two rounds;
# 3. the suite's first part (session7/suite.sh part1) on this tree.
# Every result is checked against OpenBLAS before it is timed.  Writes
# $OUT/call3.tgz and $OUT/suite-part1.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call3; mkdir -p $R
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
SIZES=${SIZES:-128,256,512,1024,2048,4096}
BIG=${BIG:-8192}
UPD=${UPD:-4096x4096x64,4096x4096x128,4096x4096x256,8192x8192x64,8192x8192x128,2048x2048x64}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

run() { # name, cap (s), routines, precisions, bench options (quoted), env...
    local name=$1 cap=$2 routines=$3 prec=$4 opts=$5; shift 5
    # shellcheck disable=SC2086
    env "$@" timeout "$cap" "$B" --routines "$routines" --precisions $prec --peers gpublas3 --reps 5 \
        --sample 256 $opts --csv "$R/$name.csv" > "$R/$name.txt" 2>&1
    echo "$name exit $? at ${SECONDS} s: $(grep -E 'checked against' "$R/$name.txt")"
}
L1="--side L --uplo L --transA N --diag N --sizes $SIZES"
run sq-leaf-1 40 gemm,trsm s,d "$L1"
run sq-leaf0-1 40 trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=0
run sq-leaf0-2 40 trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=0
run sq-leaf-2 40 gemm,trsm s,d "$L1"
run all 30 trsm s,d "--side L,R --uplo U,L --transA N,T --diag N --sizes 1024"
LU="--side L --uplo L --transA N --diag U --shapes 64x${BIG}x64,256x${BIG}x256"
CH="--side R --uplo L --transA T --diag N --shapes ${BIG}x64x64,${BIG}x256x256"
run lu 20 trsm s,d "$LU"
run chol 20 trsm s,d "$CH"
for r in 1 2; do
    run upd-plan-$r 30 gemm s "--shapes $UPD"
    run upd-large-$r 30 gemm s "--shapes $UPD" GPUBLAS3_SHAPE=large
done
GPUBLAS3_VERBOSE=1 timeout 20 $B --routines gemm --shapes "$UPD" --precisions s,d --peers gpublas3 \
    --probe 2>&1 | grep 'plan:' > $R/plans.txt
GPUBLAS3_VERBOSE=1 timeout 20 $B --routines trsm --sizes 1024,2048,4096 --precisions s --peers gpublas3 \
    --side L,R --uplo L --transA N,T --probe 2>&1 | grep 'trsm:' > $R/commands.txt
python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
for f in sorted(glob.glob(os.path.join(R, "*.csv"))):
    name = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        if r.get("status") != "ok":
            print(name, r.get("routine"), r.get("precision"), r.get("status")); continue
        print("%-16s %-3s %-5s %-38s %6s x %-6s x %-6s %10.1f us %9.2f GF/s" % (name, r["precision"], r["routine"],
              r.get("options", ""), r["m"], r["n"], r["k"], float(r["median_s"]) * 1e6, float(r["gflops"])))
PY
tar czf $OUT/call3.tgz -C $OUT call3
bash bench/results/h100/session7/suite.sh part1
