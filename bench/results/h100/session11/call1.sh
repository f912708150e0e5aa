#!/bin/bash
# Session 11, H100, call 1 (main c. 73cc373), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session11/call1.sh"
# 1. the plan sweep on the deep-K shapes (issue 10's worst group against
#    cuBLAS, 0.45-0.60 on 256^2/512^2 outputs): every class's set split
#    16, 32 and 64 ways (session 6's sweep stopped at 16), each checked
#    before it is timed (bench/plan_sweep.py), at most ~110 s;
# 2. the routines that miss 0.7x GEMM at n = 1024 under the choices the
#    plan could make instead: S TRMM (every side and uplo) on the small
#    set, and unsplit (GPUBLAS3_PLAN=packed) on either set; SYRK with 2, 4
#    and 6 slices against the default (S 4, D 3); GEMM beside each run;
# 3. the suite's first part on this tree (session7/suite.sh part1), which
#    session 10 last ran before its final plan change.
# Writes $OUT/call1.tgz.  Dry run on PoCL: BD=<build> GPUBLAS3_DEVICE=cpu
# DEEP=<shapes> N=<size> SKIP_SUITE=1 bash call1.sh
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call1; mkdir -p $R
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
N=${N:-1024}
DEEP=${DEEP:-64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

ALTS=""
for c in deepk small medium large; do for s in 16 32 64; do ALTS="$ALTS $c/splitk$s"; done; done
SWEEP_ALTS="$ALTS" SWEEP_SPLITK_MN=$((1 << 20)) SWEEP_BUDGET=100 SWEEP_TIMEOUT=40 SWEEP_REPS=5 \
    SWEEP_DEVICE=$GPUBLAS3_DEVICE timeout 140 bash bench/plan_sweep.sh "$BD" "$R/sweep" "$DEEP" > $R/sweep.txt 2>&1
echo "sweep exit $? at ${SECONDS} s"
cat $R/sweep/sweep.md 2>/dev/null | head -40

run() { # name, cap (s), routines, bench options (quoted), env...
    local name=$1 cap=$2 routines=$3 opts=$4; shift 4
    # shellcheck disable=SC2086
    env "$@" timeout "$cap" "$B" --routines "$routines" --sizes "$N" --precisions s,d \
        --peers gpublas3 --reps 5 --sample 256 $opts --csv "$R/$name.csv" > "$R/$name.txt" 2>&1
    echo "$name exit $? at ${SECONDS} s: $(grep -E 'checked against' "$R/$name.txt")"
}
T="--side L,R --uplo U,L"
for r in 1 2; do
    run trmm-default-$r 15 gemm,trmm "$T"
    run trmm-small-$r 15 gemm,trmm "$T" GPUBLAS3_SHAPE=small
    run trmm-smallpacked-$r 15 gemm,trmm "$T" GPUBLAS3_SHAPE=small GPUBLAS3_PLAN=packed
    run trmm-packed-$r 15 gemm,trmm "$T" GPUBLAS3_PLAN=packed
    run syrk-default-$r 15 gemm,syrk "--uplo U,L"
    for s in 2 4 6; do run syrk-split$s-$r 15 gemm,syrk "--uplo U,L" GPUBLAS3_SPLITS=$s; done
done
GPUBLAS3_VERBOSE=1 timeout 10 $B --routines trmm,syrk --sizes $N --precisions s,d --peers gpublas3 --side L \
    --uplo U --probe 2>&1 | grep 'plan:' > $R/plans.txt
python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, re, sys
R = sys.argv[1]
cells = {}
for f in sorted(glob.glob(os.path.join(R, "*-[12].csv"))):
    name = os.path.basename(f)[:-4]
    rows = [r for r in csv.DictReader(open(f)) if r["status"] == "ok"]
    gemm = {r["precision"]: float(r["median_s"]) for r in rows if r["routine"] == "gemm"}
    for r in rows:
        if r["routine"] != "gemm":
            key = (r["routine"], r["precision"], r["options"])
            t = float(r["median_s"])
            # SYRK and TRMM do n^3 flops, GEMM 2 n^3: rate ratio = t_gemm / (2 t)
            cells.setdefault(key, {})[name] = "%.0f/%.2f" % (t * 1e6, gemm[r["precision"]] / t / 2)
names = sorted({n for c in cells.values() for n in c})
print("us per call / rate over GEMM NN's in the same run")
print("%-44s" % "case" + "".join("%20s" % n for n in names))
for k in sorted(cells):
    print("%-44s" % " ".join(k)[:44] + "".join("%20s" % cells[k].get(n, "-") for n in names))
PY
cat $R/table.txt
[ -n "${SKIP_SUITE:-}" ] || { bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1; cat $R/suite-part1.txt;
    [ -f $OUT/suite-part1.tgz ] && mv $OUT/suite-part1.tgz $R/; }
tar czf $OUT/call1.tgz -C $OUT call1 && rm -rf $R
