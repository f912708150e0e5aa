#!/bin/bash
# Session 10, H100 (branch tri10, bench/NOTES.md section 30): triangles and
# bands at n = 1024.  One call through bench/gpu_run.sh, on a build of the
# branch carried in .device-carry/build:
#   bash bench/gpu_run.sh "bash bench/results/h100/session10/tri10.sh"
#   1. the tests of what changed (ctest: cl_syrk*, cl_trmm*, cl_tilemap,
#      cl_plan, cl_trsm_h100medium, cl_symm_h100medium; SYR2K runs in
#      test_syrk), H100 shapes and all;
#   2. GEMM, SYRK, SYR2K and TRMM (trans N; every uplo, and every side
#      for TRMM) at 1024, new (the default: tile maps and two packs a
#      launch) and old (GPUBLAS3_TILEMAP=0 GPUBLAS3_PACK2=0: session 9's
#      launches but split-K's TRMM reading B in place) alternating, two rounds
#      (new, old, old, new); then 1536 and 4096 (lower, TRMM left) new
#      and old; then GEMM and TRMM at 1024 on the small set
#      (GPUBLAS3_SHAPE=small: unsplit, 512 tiles, every round snaked) new
#      and old, as time allows (trans T and the other options: the tests);
#   3. each case's plan (GPUBLAS3_VERBOSE, one unchecked call);
#   4. a table last: us per call (median of 5) and each routine's rate over
#      GEMM's (transA N) in the same run.
# Every result is checked against OpenBLAS by gpublas3-bench before it is
# timed.  At most 150 s: each step capped, steps skipped when past their
# start limits.  Writes $OUT/tri10/ and $OUT/tri10.tgz.
# Dry run elsewhere (e.g. PoCL): BD=<build> GPUBLAS3_DEVICE=cpu TESTS=<ctest
# regex> SIZES=64 MID=96 BIG=128 bash tri10.sh
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
SIZES=${SIZES:-1024}
MID=${MID:-1536}
BIG=${BIG:-4096}
TESTS=${TESTS:-'^cl_(syrk|trmm)|^cl_tilemap$|^cl_plan$|^cl_(trsm|symm)_h100medium$'}
R=$OUT/tri10
mkdir -p "$R"
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/cache
export LD_LIBRARY_PATH=$BD:${LD_LIBRARY_PATH:-}
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > "$R/machine.txt"

(cd "$BD" && timeout 50 ctest -j8 -R "$TESTS" -E 'narrowcopy|nwg24|lopsided|direct' --output-on-failure) \
    > "$R/ctest.log" 2>&1
echo "ctest exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' "$R/ctest.log")" | tee -a "$R/exit.txt"

run() { # name, start limit (s), cap (s), routines, sizes, bench options (quoted), env...
    local name=$1 limit=$2 cap=$3 routines=$4 sizes=$5 opts=$6
    shift 6
    if [ "$SECONDS" -gt "$limit" ]; then echo "$name skipped at ${SECONDS} s" | tee -a "$R/exit.txt"; return; fi
    # shellcheck disable=SC2086
    env "$@" timeout "$cap" "$B" --routines "$routines" --sizes "$sizes" --precisions s,d \
        --peers gpublas3 --reps 5 --sample 512 $opts --csv "$R/$name.csv" > "$R/$name.txt" 2>&1
    echo "$name exit $? at ${SECONDS} s: $(grep -E 'checked against' "$R/$name.txt")" | tee -a "$R/exit.txt"
}
# (start limit + cap <= 146 for every step, the table and tarball ~1 s: within 150 s)
ALL=gemm,syrk,syr2k,trmm
run new1 58 22 $ALL "$SIZES" "--side L,R --uplo U,L"
run old1 80 15 $ALL "$SIZES" "--side L,R --uplo U,L" GPUBLAS3_TILEMAP=0 GPUBLAS3_PACK2=0
run old2 94 13 $ALL "$SIZES" "--side L,R --uplo U,L" GPUBLAS3_TILEMAP=0 GPUBLAS3_PACK2=0
run new2 106 13 $ALL "$SIZES" "--side L,R --uplo U,L"
run newbig 108 26 $ALL "$MID,$BIG" "--side L --uplo L"
[ -e "$R/newbig.csv" ] && run oldbig 120 26 $ALL "$MID,$BIG" "--side L --uplo L" GPUBLAS3_TILEMAP=0 GPUBLAS3_PACK2=0
run smallnew 131 6 gemm,trmm "$SIZES" "--side L,R --uplo U" GPUBLAS3_SHAPE=small
run smallold 137 6 gemm,trmm "$SIZES" "--side L,R --uplo U" GPUBLAS3_SHAPE=small GPUBLAS3_TILEMAP=0 GPUBLAS3_PACK2=0

if [ "$SECONDS" -le 141 ]; then
    GPUBLAS3_VERBOSE=1 timeout 3 "$B" --routines $ALL --sizes "$SIZES" --precisions s,d \
        --peers gpublas3 --side L,R --uplo U,L --probe 2>&1 | grep 'plan:' > "$R/plans.txt"
fi

python3 - "$R" > "$R/table.txt" <<'PY'
import csv, os, sys
R = sys.argv[1]
names = ["new1", "old1", "old2", "new2", "newbig", "oldbig", "smallnew", "smallold"]
cols, us, ratio = [], {}, {}
for name in names:
    f = os.path.join(R, name + ".csv")
    if not os.path.exists(f):
        continue
    cols.append(name)
    rows = [r for r in csv.DictReader(open(f)) if r["status"].strip('"') == "ok"]
    gemm = {(r["precision"], r["m"]): float(r["gflops"]) for r in rows
            if r["routine"] == "gemm" and "transA=N" in r["options"]}
    for r in rows:
        key = (r["routine"], r["precision"], r["options"].replace("col ", ""), int(r["m"]))
        us.setdefault(key, {})[name] = "%.0f" % (float(r["median_s"]) * 1e6)
        g = gemm.get((r["precision"], r["m"]))
        if g:
            ratio.setdefault(key, {})[name] = "%.2f" % (float(r["gflops"]) / g)
print("us per call (median of 5) / rate over GEMM NN's in the same run")
print("new = the default, old = GPUBLAS3_TILEMAP=0 GPUBLAS3_PACK2=0; small = GPUBLAS3_SHAPE=small")
print("routine p options n".ljust(46) + "".join(c.rjust(12) for c in cols))
for k in sorted(us):
    cells = ["%s/%s" % (us[k].get(c, "-"), ratio.get(k, {}).get(c, "-")) if c in us[k] else "-" for c in cols]
    print(("%s %s %s %d" % k).ljust(46) + "".join(x.rjust(12) for x in cells))
PY
cat "$R/table.txt"
grep -E "FAIL|Failed|\*\*\*" "$R/ctest.log" | head -20
tar czf "$OUT/tri10.tgz" -C "$OUT" tri10
echo "done at ${SECONDS} s"
