#!/bin/bash
# Session 11, H100, call 4 (main with the deep-K rule and pf11), through
# bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session11/call4.sh"
# 1. the direct kernel's work-group and work-item tiles for the small calls
#    (issue 10: a 64^3 call no slower than cuBLAS's; session 8: D 21 us
#    against 17): 32^3-256^3, S and D, 40 timed calls each, the default
#    (16x16, 1x1) and five other tiles (GPUBLAS3_PARAMS, the small set's
#    direct_* fields), two rounds, every result checked;
# 2. issue 10's shape suite, gpublas3 and CLBlast 1.5.3 in one run, cuBLAS
#    (no TF32) right after, every result checked first (as session 8's
#    final.sh shapes).
# Writes $OUT/call4.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call4; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &
SMALL=32x32x32,64x64x64,128x128x128,256x256x256
TILES="16,16,1,1 8,8,1,1 8,8,2,2 16,16,2,2 16,8,2,1 32,8,1,1"
for r in 1 2; do
    for t in $TILES; do
        IFS=, read dm dn wm wn <<< "$t"
        GPUBLAS3_PARAMS="small:direct_dm=$dm,direct_dn=$dn,direct_wm=$wm,direct_wn=$wn" timeout 20 $B --shapes $SMALL \
            --precisions s,d --peers gpublas3 --reps 40 --csv $R/direct-$dm-$dn-$wm-$wn-$r.csv \
            > $R/direct-$dm-$dn-$wm-$wn-$r.txt 2>&1
        echo "direct $t round $r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/direct-$dm-$dn-$wm-$wn-$r.txt)"
    done
done
python3 - $R > $R/direct.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
t = {}
for f in sorted(glob.glob(os.path.join(R, "direct-*.csv"))):
    tile = "-".join(os.path.basename(f)[:-4].split("-")[1:5])
    for r in csv.DictReader(open(f)):
        if r["status"] == "ok":
            t.setdefault((r["precision"], r["m"]), {}).setdefault(tile, []).append(float(r["median_s"]) * 1e6)
tiles = sorted({k for v in t.values() for k in v})
print("us per call (median of 40), round 1/round 2; tile = direct_dm-dn-wm-wn")
print("%-10s" % "case" + "".join("%16s" % x for x in tiles))
for k in sorted(t, key=lambda k: (k[0], int(k[1]))):
    print("%-10s" % " ".join(k) + "".join("%16s" % "/".join("%.1f" % v for v in t[k].get(x, [])) for x in tiles))
PY
cat $R/direct.txt
wait
timeout 400 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
echo "suite exit $? at ${SECONDS} s" | tee -a $R/exit.txt
timeout 80 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -E "checked|target met" $R/shapes.txt
tar czf $OUT/call4.tgz -C $OUT call4 && rm -rf $R
