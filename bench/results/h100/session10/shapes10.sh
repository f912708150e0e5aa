#!/bin/bash
# Session 10, H100: branch shapes10 (bench/NOTES.md section 31), on its
# build carried in .device-carry/build, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session10/shapes10.sh"
# 1. cl_plan (the H100 rows' class boundaries: h100_rows) and cl_inplace
#    (k-contiguous operands in the block form), 40 s at most;
# 2. each suite shape's plan, new and old (GPUBLAS3_VERBOSE, --probe);
# 3. the skinny and deep-K suite shapes, S and D, every result checked
#    first (leading 16 columns), median of 5: old, new, new, old.  old =
#    GPUBLAS3_CL_OPTIONS=-DTBLOCK=0 (k-contiguous tiles staged a column per
#    work-item, as before), and the two 128-wide shapes with
#    GPUBLAS3_SHAPE=medium as well (the medium class's old depth rule
#    gave them the medium set); new = the branch's defaults;
# 4. cuBLAS on the same shapes (bench/cublas_peer.cu, built here by nvcc);
# 5. if time is left: every k-contiguous operand read in place
#    (GPUBLAS3_INPLACE=2, block form) on the shapes the reuse rule packs.
# Every step has a timeout and the whole stays under 150 s; a table of
# us per call is printed last.  Writes $OUT/shapes10.tgz.
# A dry run elsewhere (PoCL): SHAPES10_BD (build), SHAPES10_OTHER and
# SHAPES10_WIDE (shape lists), GPUBLAS3_DEVICE.
set -u
BD=${SHAPES10_BD:-/work/main/.device-carry/build}
B=$BD/bench/gpublas3-bench
R=$OUT/shapes10; mkdir -p $R $BD/Testing/Temporary
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
OTHER=${SHAPES10_OTHER:-8192x64x8192,64x8192x8192,64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN}
WIDE=${SHAPES10_WIDE:-16384x128x4096,128x8192x8192:TN}
PACKED=${SHAPES10_PACKED:-8192x64x8192,16384x128x4096,256x256x16384,512x512x8192:TN,128x8192x8192:TN}
(command -v nvcc > /dev/null && nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas \
    > $R/nvcc.log 2>&1 || echo "nvcc failed or absent" >> $R/nvcc.log) &
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $R/machine.txt 2>&1
date -u >> $R/machine.txt
left() { local t=$(( 145 - SECONDS )); [ $t -gt $1 ] && t=$1; echo $(( t > 1 ? t : 1 )); }

(cd $BD && timeout 40 ctest -j2 --timeout 38 -R '^cl_(plan|inplace)$' --output-on-failure) > $R/ctest.log 2>&1
echo "tests exit $? at ${SECONDS} s: $(grep -E 'tests passed' $R/ctest.log)" | tee -a $R/exit.txt

OLD=(GPUBLAS3_CL_OPTIONS=-DTBLOCK=0)
for v in new old; do
    [ $v = old ] && pre=("${OLD[@]}") || pre=()
    for list in "$OTHER" "$WIDE"; do
        [ $v = old ] && [ "$list" = "$WIDE" ] && shape=(GPUBLAS3_SHAPE=medium) || shape=()
        env "${pre[@]}" "${shape[@]}" GPUBLAS3_VERBOSE=1 timeout $(left 20) $B --shapes $list --precisions s,d \
            --peers gpublas3 --probe 2>&1 | grep 'plan: ' | sed -E 's/.*plan: //; s/ terms=1 tri=0 band=0//' >> $R/plans-$v.txt
    done
done

run() { # variant, round: the shapes, checked, median of 5
    local v=$1 r=$2 t
    [ $v = old ] && pre=("${OLD[@]}") || pre=()
    for part in other wide; do
        t=$(left 35)
        if [ $t -lt 5 ]; then echo "$v-$r-$part skipped at ${SECONDS} s" | tee -a $R/exit.txt; continue; fi
        [ $part = other ] && list=$OTHER || list=$WIDE
        [ $v = old ] && [ $part = wide ] && shape=(GPUBLAS3_SHAPE=medium) || shape=()
        env "${pre[@]}" "${shape[@]}" timeout $t $B --shapes $list --precisions s,d --peers gpublas3 --reps 5 \
            --sample 16 --csv $R/$v-$r-$part.csv > $R/$v-$r-$part.txt 2>&1
        echo "$v-$r-$part exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/$v-$r-$part.txt)" | tee -a $R/exit.txt
    done
}
run old 1; run new 1; run new 2; run old 2

wait # nvcc
if [ -x /tmp/cublas_peer ] && [ $SECONDS -le 128 ]; then
    timeout $(left 15) /tmp/cublas_peer --shapes $OTHER,$WIDE --precisions s,d --reps 5 --csv $R/cublas.csv > $R/cublas.txt 2>&1
    echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
fi
if [ $SECONDS -le 110 ]; then
    GPUBLAS3_INPLACE=2 timeout $(left 30) $B --shapes $PACKED --precisions s,d --peers gpublas3 --reps 5 --sample 16 \
        --csv $R/k2-1-all.csv > $R/k2-1-all.txt 2>&1
    echo "k2 exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/k2-1-all.txt)" | tee -a $R/exit.txt
fi

python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
rows, cols = {}, []
def key(x):
    o = x["options"]
    tt = o.split("transA=")[1][0] + o.split("transB=")[1][0] if "transA=" in o else "NN"
    return (x["precision"], x["shape"] + ("" if tt == "NN" else ":" + tt))
for col, pat in [("old", "old-*.csv"), ("new", "new-*.csv"), ("k2", "k2-*.csv"), ("cublas", "cublas.csv")]:
    for f in sorted(glob.glob(os.path.join(R, pat))):
        for x in csv.DictReader(open(f)):
            if x["status"].strip('"') == "ok":
                rows.setdefault(key(x), {}).setdefault(col, []).append("%.0f" % (float(x["median_s"]) * 1e6))
    cols.append(col)
print("us per call, median of 5 (old, new: round 1/round 2); old = TBLOCK=0 and the 128-wide shapes on the medium set")
print("p shape".ljust(24) + "".join(c.rjust(12) for c in cols))
for k in sorted(rows):
    print(("%s %s" % k).ljust(24) + "".join("/".join(rows[k].get(c, ["-"])).rjust(12) for c in cols))
PY
cat $R/exit.txt $R/table.txt
cut -c1-170 $R/plans-new.txt
grep -hE ' [1-9][0-9]* FAILED' $R/*.txt | head -10
tar czf $OUT/shapes10.tgz -C $OUT shapes10 && rm -rf $R
