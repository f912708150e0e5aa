#!/bin/bash
# Session 11, H100, call 5 (main with the GPUs' direct tile 32 x 8), through
# bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session11/call5.sh"
# 1. the small calls on the new direct tile (32 x 8) and the old (16 x 16),
#    alternating, two rounds, 40 timed calls each;
# 2. the update shapes (K = 64-256 on 4096^2-8192^2 outputs, issue 10's
#    largest gap to cuBLAS in call 4: S 4096^2 x 64 0.43x) under the
#    large, medium and small sets on the packed path (the plan sweep), and
#    the default with the switches of sessions 9-10 off one at a time
#    (GPUBLAS3_PACK2=0, GPUBLAS3_INPLACE=0, GPUBLAS3_TILEMAP=0);
# every result checked before it is timed.  Writes $OUT/call5.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call5; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
SMALL=${SMALL:-32x32x32,64x64x64,128x128x128,256x256x256}
UPD=${UPD:-4096x4096x64,4096x4096x256,8192x8192x128,8192x8192x256}
for r in 1 2; do
    for v in new old; do
        [ $v = old ] && e=(GPUBLAS3_PARAMS=small:direct_dm=16,direct_dn=16) || e=()
        env "${e[@]}" timeout 20 $B --shapes $SMALL --precisions s,d --peers gpublas3 --reps 40 \
            --csv $R/direct-$v-$r.csv > $R/direct-$v-$r.txt 2>&1
        echo "direct-$v-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/direct-$v-$r.txt)"
    done
done
for v in default PACK2=0 INPLACE=0 TILEMAP=0; do
    [ $v = default ] && e=() || e=(GPUBLAS3_$v)
    env "${e[@]}" timeout 25 $B --shapes $UPD --precisions s,d --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/upd-$v.csv > $R/upd-$v.txt 2>&1
    echo "upd-$v exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/upd-$v.txt)"
done
GPUBLAS3_VERBOSE=1 timeout 10 $B --shapes $UPD --precisions s,d --peers gpublas3 --probe 2>&1 | grep 'plan:' > $R/plans.txt
SWEEP_ALTS="medium/packed small/packed large/packed" SWEEP_BUDGET=90 SWEEP_TIMEOUT=40 SWEEP_REPS=5 \
    SWEEP_DEVICE=${GPUBLAS3_DEVICE:-gpu} timeout 120 bash bench/plan_sweep.sh "$BD" "$R/sweep" "$UPD" > $R/sweep.txt 2>&1
echo "sweep exit $? at ${SECONDS} s"
python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
t = {}
for f in sorted(glob.glob(os.path.join(R, "*.csv"))):
    name = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        if r.get("status") == "ok":
            t.setdefault((r["precision"], "%sx%sx%s" % (r["m"], r["n"], r["k"])), {})[name] = float(r["median_s"]) * 1e6
names = sorted({n for v in t.values() for n in v})
print("us per call (medians)")
for k in sorted(t):
    print("%s %s: " % k + ", ".join("%s %.1f" % (n, t[k][n]) for n in names if n in t[k]))
PY
cat $R/table.txt; cat $R/sweep/sweep.md 2>/dev/null
tar czf $OUT/call5.tgz -C $OUT call5 && rm -rf $R
