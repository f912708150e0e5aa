#!/bin/bash
# Session 11, H100, call 2 (main with the deep-K rule and pf11 merged),
# through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session11/call2.sh"
# 1. the tests of what changed: cl_plan (the deep-K rule, h100_rows' new
#    cases, the boundary tests that now pin medium_wgs 0) and the host
#    copies' tests (pf11's prefetch);
# 2. the deep-K shapes under the new rule and the old one
#    (GPUBLAS3_PARAMS=medium:medium_wgs=0, which restores it for these
#    shapes), alternating, two rounds, every result checked; cuBLAS on the
#    same shapes after;
# 3. pf11.sh (bench/NOTES.md 33: prefetch in the host copies, <= 120 s).
# Writes $OUT/call2.tgz (and pf11.tgz).
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call2; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
DEEP=${DEEP:-64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &
(cd $BD && timeout 150 ctest -j8 -R '^cl_plan$|^host_copy|^host_fortran|^host_timing_smoke$|^bench_copy_probe$' \
    --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' $R/ctest.log)"
grep -E '^\s+[0-9]+ - ' $R/ctest.log
wait
for r in 1 2; do
    for v in new old; do
        [ $v = old ] && e=(GPUBLAS3_PARAMS=medium:medium_wgs=0) || e=()
        env "${e[@]}" timeout 30 $B --shapes $DEEP --precisions s,d --peers gpublas3 --reps 5 \
            --csv $R/deep-$v-$r.csv > $R/deep-$v-$r.txt 2>&1
        echo "deep-$v-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/deep-$v-$r.txt)"
    done
done
GPUBLAS3_VERBOSE=1 timeout 10 $B --shapes $DEEP --precisions s,d --peers gpublas3 --probe 2>&1 | grep 'plan:' > $R/plans.txt
timeout 40 /tmp/cublas_peer --shapes $DEEP --precisions s,d --reps 5 --csv $R/cublas.csv > $R/cublas.txt 2>&1
echo "cublas exit $? at ${SECONDS} s"
python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
t = {}
for f in sorted(glob.glob(os.path.join(R, "deep-*.csv"))) + [os.path.join(R, "cublas.csv")]:
    if not os.path.exists(f):
        continue
    name = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        if r.get("status", "ok") == "ok":
            key = (r["precision"], "%sx%sx%s" % (r["m"], r["n"], r["k"]), r.get("options", ""))
            t.setdefault(key[:2], {})[name] = float(r["median_s"]) * 1e6
names = ["deep-new-1", "deep-old-1", "deep-old-2", "deep-new-2", "cublas"]
print("us per call (median of 5); new = the widest set with 4 tiles, old = medium_wgs 0 (the rule before)")
print("%-24s" % "case" + "".join("%12s" % n for n in names) + "%12s" % "new/cublas")
for k in sorted(t):
    row = t[k]
    new = min(row.get("deep-new-1", 1e9), row.get("deep-new-2", 1e9))
    ratio = "%.2f" % (row["cublas"] / new) if "cublas" in row and new < 1e9 else "-"
    print("%-24s" % " ".join(k) + "".join("%12s" % ("%.0f" % row[n] if n in row else "-") for n in names) + "%12s" % ratio)
PY
cat $R/table.txt
tar czf $OUT/call2.tgz -C $OUT call2 && rm -rf $R
bash bench/results/h100/session11/pf11.sh
