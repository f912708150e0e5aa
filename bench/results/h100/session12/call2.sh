#!/bin/bash
# Session 12, H100, call 2, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session12/call2.sh"
# 1. the leaf kernel's second version (loads a step ahead, vector reads of
#    X, partial sums on the diagonal chains): its tests on the H100;
# 2. leaf 1024 / 512 / 256 against the blocked path (trsm_leaf=0), n = 128
#    ... 4096, S and D, left lower N, GEMM n^3 in the same runs, leaf 1024
#    and blocked twice in opposite orders; LAPACK's LU and Cholesky solves
#    (8192 columns / rows, 64 and 256 deep) at leaf 1024 and 0; refinement
#    off at 1024;
# 3. issue 10's two waiting plan candidates, S, alternating, two rounds:
#    64-wide skinny outputs in 8 slices (GPUBLAS3_SPLITS=8) against the
#    plan, and updates of K <= 256 on the medium set (GPUBLAS3_SHAPE=medium)
#    against the plan.
# Every result is checked against OpenBLAS before it is timed.  Writes
# $OUT/call2.tgz.  Dry run on PoCL: BD=<build> GPUBLAS3_DEVICE=cpu
# SKIP_TESTS=1 SIZES=128 BIG=256 SKINNY=256x64x256 UPD=256x256x64 bash call2.sh
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call2; mkdir -p $R
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
SIZES=${SIZES:-128,256,512,1024,2048,4096}
BIG=${BIG:-8192}
SKINNY=${SKINNY:-8192x64x8192,64x8192x8192,64x8192x8192:TN,4096x64x4096,64x4096x4096,64x16384x4096}
UPD=${UPD:-4096x4096x64,4096x4096x128,4096x4096x256,8192x8192x64,8192x8192x128,8192x8192x256,8192x8192x256:NT}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

if [ -z "${SKIP_TESTS:-}" ]; then
    (cd $BD && timeout 240 ctest -j6 --timeout 200 \
        -R 'cl_trsm$|cl_trsm_leaf|cl_trsm_chain|bench_trsm_commands|netlib_blas3_[sd]_trsm|netlib_lapack_[sd]$' \
        --output-on-failure > $R/tests.txt 2>&1)
    echo "tests exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' $R/tests.txt)"
    grep -E 'Failed|\*\*\*' $R/tests.txt | head -20
fi

run() { # name, cap (s), routines, precisions, bench options (quoted), env...
    local name=$1 cap=$2 routines=$3 prec=$4 opts=$5; shift 5
    # shellcheck disable=SC2086
    env "$@" timeout "$cap" "$B" --routines "$routines" --precisions $prec --peers gpublas3 --reps 5 \
        --sample 256 $opts --csv "$R/$name.csv" > "$R/$name.txt" 2>&1
    echo "$name exit $? at ${SECONDS} s: $(grep -E 'checked against' "$R/$name.txt")"
}
L1="--side L --uplo L --transA N --diag N --sizes $SIZES"
run sq-leaf1024-1 40 gemm,trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=1024
run sq-leaf0-1 40 trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=0
run sq-leaf512 40 trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=512
run sq-leaf256 40 trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=256
run sq-leaf0-2 40 trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=0
run sq-leaf1024-2 40 gemm,trsm s,d "$L1" GPUBLAS3_PARAMS=trsm_leaf=1024
run norefine 20 trsm s,d "--side L --uplo L --transA N --diag N --sizes 1024" \
    GPUBLAS3_PARAMS=trsm_leaf=1024,trsm_refine=0
run right 20 trsm s,d "--side R --uplo U --transA T --diag N --sizes 1024" GPUBLAS3_PARAMS=trsm_leaf=1024
LU="--side L --uplo L --transA N --diag U --shapes 64x${BIG}x64,256x${BIG}x256"
CH="--side R --uplo L --transA T --diag N --shapes ${BIG}x64x64,${BIG}x256x256"
for leaf in 1024 0; do
    run lu-leaf$leaf 30 trsm s,d "$LU" GPUBLAS3_PARAMS=trsm_leaf=$leaf
    run chol-leaf$leaf 30 trsm s,d "$CH" GPUBLAS3_PARAMS=trsm_leaf=$leaf
done
for r in 1 2; do
    run skinny-plan-$r 40 gemm s "--shapes $SKINNY"
    run skinny-split8-$r 40 gemm s "--shapes $SKINNY" GPUBLAS3_SPLITS=8
    run upd-plan-$r 40 gemm s "--shapes $UPD"
    run upd-medium-$r 40 gemm s "--shapes $UPD" GPUBLAS3_SHAPE=medium
done
GPUBLAS3_VERBOSE=1 timeout 20 $B --routines gemm --shapes "$SKINNY,$UPD" --precisions s --peers gpublas3 \
    --probe 2>&1 | grep 'plan:' > $R/plans.txt
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
cat $R/table.txt
tar czf $OUT/call2.tgz -C $OUT call2
