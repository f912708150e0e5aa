#!/bin/bash
# Session 12, H100, call 1: TRSM's leaves in one launch (kernels/trsm.cl),
# through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session12/call1.sh"
# 1. the TRSM tests on the H100, where GPUs now take the leaf kernel by
#    default (cl_trsm*, the command counts, cl_plan, the BLAS testers' TRSM
#    runs, LAPACK's testers on S and D);
# 2. leaf (trsm_leaf=1024, the new default) against the blocked path of
#    session 10 (trsm_leaf=0) at n = 128 ... 4096, S and D, left lower N,
#    GEMM n^3 in the same runs, two rounds in opposite orders; all 16
#    side/uplo/trans/diag cases at 1024 both ways;
# 3. leaf sizes 256 and 512 at 2048 and 4096; no refinement at 1024;
# 4. LAPACK's solves: LU's (left lower unit, 64 or 256 rows, 8192 columns)
#    and Cholesky's (right lower T, 8192 rows, 64 or 256 columns), both ways;
#    CLBlast's TRSM once beside the default.
# Every result is checked against OpenBLAS before it is timed (--sample for
# the large ones).  Writes $OUT/call1.tgz.  Dry run on PoCL: BD=<build>
# GPUBLAS3_DEVICE=cpu SKIP_TESTS=1 SIZES=128 BIG=256 bash call1.sh
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call1; mkdir -p $R
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
SIZES=${SIZES:-128,256,512,1024,2048,4096}
BIG=${BIG:-8192}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

if [ -z "${SKIP_TESTS:-}" ]; then
    (cd $BD && timeout 300 ctest -j6 --timeout 200 \
        -R 'cl_trsm|bench_trsm_commands|cl_plan$|netlib_blas3_[sd]_trsm|netlib_blas3_[sd]$|netlib_lapack_[sd]' \
        -E 'h100' --output-on-failure > $R/tests.txt 2>&1)
    echo "tests exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' $R/tests.txt)"
    grep -E 'Failed|\*\*\*' $R/tests.txt | head -20
fi

run() { # name, cap (s), routines, bench options (quoted), env...
    local name=$1 cap=$2 routines=$3 opts=$4; shift 4
    # shellcheck disable=SC2086
    env "$@" timeout "$cap" "$B" --routines "$routines" --precisions s,d --peers gpublas3 --reps 5 \
        --sample 256 $opts --csv "$R/$name.csv" > "$R/$name.txt" 2>&1
    echo "$name exit $? at ${SECONDS} s: $(grep -E 'checked against' "$R/$name.txt")"
}
L1="--side L --uplo L --transA N --diag N --sizes $SIZES"
for r in 1 2; do
    if [ $r = 1 ]; then order="1024 0"; else order="0 1024"; fi
    for leaf in $order; do run sq-leaf$leaf-$r 60 gemm,trsm "$L1" GPUBLAS3_PARAMS=trsm_leaf=$leaf; done
done
ALL="--side L,R --uplo U,L --transA N,T --diag N,U --sizes 1024"
run all-leaf1024 40 trsm "$ALL" GPUBLAS3_PARAMS=trsm_leaf=1024
run all-leaf0 60 trsm "$ALL" GPUBLAS3_PARAMS=trsm_leaf=0
for leaf in 256 512; do
    run big-leaf$leaf 40 trsm "--side L --uplo L --transA N --diag N --sizes 2048,4096" GPUBLAS3_PARAMS=trsm_leaf=$leaf
done
run norefine 20 trsm "--side L --uplo L --transA N --diag N --sizes 1024" GPUBLAS3_PARAMS=trsm_leaf=1024,trsm_refine=0
LU="--side L --uplo L --transA N --diag U --shapes 64x${BIG}x64,256x${BIG}x256"
CH="--side R --uplo L --transA T --diag N --shapes ${BIG}x64x64,${BIG}x256x256"
for leaf in 1024 0; do
    run lu-leaf$leaf 40 trsm "$LU" GPUBLAS3_PARAMS=trsm_leaf=$leaf
    run chol-leaf$leaf 40 trsm "$CH" GPUBLAS3_PARAMS=trsm_leaf=$leaf
done
timeout 60 "$B" --routines trsm --precisions s,d --peers gpublas3,clblast --reps 5 --sample 256 $L1 \
    --csv $R/clblast.csv > $R/clblast.txt 2>&1
echo "clblast exit $? at ${SECONDS} s"
GPUBLAS3_VERBOSE=1 timeout 20 $B --routines trsm --sizes 1024,4096 --precisions s --peers gpublas3 --side L,R \
    --uplo L --transA N,T --probe 2>&1 | grep 'trsm:' > $R/commands.txt
python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
for f in sorted(glob.glob(os.path.join(R, "*.csv"))):
    name = os.path.basename(f)[:-4]
    rows = [r for r in csv.DictReader(open(f))]
    for r in rows:
        if r.get("status") != "ok":
            print(name, r.get("routine"), r.get("precision"), r.get("status")); continue
        print("%-16s %-6s %-3s %-8s %-5s %6s x %-6s %10.1f us %8.2f GF/s" % (name, r["peer"], r["precision"],
              r["routine"], r.get("options", ""), r["m"], r["n"], float(r["median_s"]) * 1e6, float(r["gflops"])))
PY
cat $R/table.txt
tar czf $OUT/call1.tgz -C $OUT call1
