#!/bin/bash
# Session 11, H100, call 7: the final tree, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session11/call7.sh"
# 1. the D small row's splitk_k 256 (was 512) against the old value
#    (GPUBLAS3_PARAMS=d:small:splitk_k=512), alternating, two rounds: the
#    D GEMM shapes whose plan it changes and every routine at n = 512
#    (their calls are small-class ones), every result checked;
# 2. the suite's first part (session7/suite.sh part1) on this tree.
# Writes $OUT/call7.tgz (and suite-part1.tgz inside it).
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call7; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
SH=${SH:-512x512x512,768x768x512,512x1024x1024,384x384x1024}
N=${N:-512}
for r in 1 2; do
    for v in new old; do
        [ $v = old ] && e=(GPUBLAS3_PARAMS=d:small:splitk_k=512) || e=()
        env "${e[@]}" timeout 20 $B --shapes $SH --precisions d --peers gpublas3 --reps 9 \
            --csv $R/gemm-$v-$r.csv > $R/gemm-$v-$r.txt 2>&1
        echo "gemm-$v-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/gemm-$v-$r.txt)"
        env "${e[@]}" timeout 25 $B --routines symm,syrk,syr2k,trmm,trsm --sizes $N --precisions d --peers gpublas3 \
            --reps 9 --csv $R/routines-$v-$r.csv > $R/routines-$v-$r.txt 2>&1
        echo "routines-$v-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/routines-$v-$r.txt)"
    done
done
GPUBLAS3_VERBOSE=1 timeout 10 $B --shapes $SH --precisions d --peers gpublas3 --probe 2>&1 | grep 'plan:' > $R/plans.txt
python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
t = {}
for f in sorted(glob.glob(os.path.join(R, "*-[12].csv"))):
    kind, v, r = os.path.basename(f)[:-4].split("-")
    for row in csv.DictReader(open(f)):
        if row["status"] == "ok":
            key = (row["routine"], "%sx%sx%s" % (row["m"], row["n"], row["k"]), row["options"])
            t.setdefault(key, {})["%s%s" % (v, r)] = float(row["median_s"]) * 1e6
cols = ["new1", "old1", "old2", "new2"]
print("us per call (median of 9), D; new = splitk_k 256 on the small row, old = 512")
print("%-60s" % "case" + "".join("%9s" % c for c in cols))
for k in sorted(t):
    print("%-60s" % " ".join(k)[:60] + "".join("%9s" % ("%.1f" % t[k][c] if c in t[k] else "-") for c in cols))
PY
cat $R/table.txt
bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
cat $R/suite-part1.txt
[ -f $OUT/suite-part1.tgz ] && mv $OUT/suite-part1.tgz $R/
tar czf $OUT/call7.tgz -C $OUT call7 && rm -rf $R
