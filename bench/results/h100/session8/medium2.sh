#!/bin/bash
# Session 8, the medium class's second H100 call (bench/NOTES.md section
# 24), through bench/gpu_run.sh, on the build of the commit with the medium
# rows in tuned-params/nvidia-h100.csv:
#   1. the tests that say the rows work on the H100: cl_plan (the class's
#      boundaries counted on 132 SMs), the routine tests with the medium
#      set forced (the mma m16n8k8 D set and the S set, every edge case),
#      bench_tune_row;
#   2. where the boundary lies: the large set against the medium set
#      (GPUBLAS3_SHAPE) on squares from 1152 to 3072, two non-squares, and
#      deep K (1024^2 x 2048, x 4096, 1536^2 x 4096; there also the medium
#      set split by its own split-K, splitk_wgs 8 with slices of 1024 or
#      more), two rounds in opposite orders;
#   3. the committed plan on the first call's shapes, and cuBLAS on all;
#   4. a table of us per call last.
# Writes one tarball, $OUT/s8medium2.tgz.  About 5 minutes (runs are
# skipped past 470 s).  Run from the copy's root, with the build in
# .device-carry/build:  bash bench/gpu_run.sh "bash bench/results/h100/session8/medium2.sh"
set -u
BD=/work/main/.device-carry/build
B=$BD/bench/gpublas3-bench
R=$OUT/s8medium2; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
export GPUBLAS3_DEVICE=gpu
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 || echo "nvcc failed" >> $R/nvcc.log) &
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt

# 1. the tests
(cd $BD && timeout 200 ctest -j4 -R 'cl_plan$|_medium$|bench_tune_row' --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' $R/ctest.log)" | tee -a $R/exit.txt

# 2. large against medium
GRID=1152x1152x1152,1280x1280x1280,1408x1408x1408,1536x1536x1536,1664x1664x1664,1792x1792x1792,1920x1920x1920,2048x2048x2048,2304x2304x2304,2560x2560x2560,3072x3072x3072,2048x1024x1024,1536x1536x256
DEEP=1024x1024x2048,1024x1024x4096,1536x1536x4096
MID=512x512x512,768x768x768,1024x1024x1024,1536x1536x1536,2048x2048x2048,1024x1024x4096,1536x1536x512,2048x2048x256,1024x1024x256
run() { # name, shapes, env...; skipped past 470 s, so that the call ends inside 10 minutes
    local name=$1 shapes=$2; shift 2
    if [ $SECONDS -gt 470 ]; then echo "$name skipped at ${SECONDS} s" | tee -a $R/exit.txt; return; fi
    env "$@" timeout 120 $B --shapes $shapes --precisions s,d --peers gpublas3 --reps 5 --sample 512 \
        --csv $R/$name.csv > $R/$name.txt 2>&1
    echo "$name exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/$name.txt)" | tee -a $R/exit.txt
}
GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $MID,$GRID,$DEEP --precisions s,d --peers gpublas3 --probe 2>&1 |
    grep 'plan:' > $R/plans.txt
run large $GRID,$DEEP GPUBLAS3_SHAPE=large
run medium $GRID,$DEEP GPUBLAS3_SHAPE=medium
run msplit $DEEP GPUBLAS3_SHAPE=medium GPUBLAS3_PARAMS="medium:splitk_wgs=8,splitk_k=1024"
run now $MID
run medium2 $GRID,$DEEP GPUBLAS3_SHAPE=medium
run large2 $GRID,$DEEP GPUBLAS3_SHAPE=large

# 3. cuBLAS
wait
timeout 90 /tmp/cublas_peer --shapes $MID,$GRID,$DEEP --reps 5 --csv $R/cublas.csv > $R/cublas.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt

# 4. us per call
python3 - $R > $R/table.txt <<'PY'
import csv, os, sys
R = sys.argv[1]
cols, rows = [], {}
for name in ["large", "large2", "medium", "medium2", "msplit", "now", "cublas"]:
    f = os.path.join(R, name + ".csv")
    if not os.path.exists(f):
        continue
    cols.append(name)
    for r in csv.DictReader(open(f)):
        if r["status"].strip('"') == "ok":
            rows.setdefault((r["precision"], r["shape"]), {})[name] = "%.0f" % (float(r["median_s"]) * 1e6)
print("us per call (median of 5); large/medium = that set forced, msplit = medium split (splitk_wgs 8, slices >= 1024), now = the committed plan")
print("p shape".ljust(24) + "".join(c.rjust(9) for c in cols))
for (p, s), v in sorted(rows.items(), key=lambda kv: (kv[0][0], [int(x) for x in kv[0][1].split(":")[0].split("x")])):
    print((p + " " + s).ljust(24) + "".join(v.get(c, "-").rjust(9) for c in cols))
PY
cat $R/table.txt
grep -E "FAIL|Failed|tests passed|tests failed" $R/ctest.log | head -20
tar czf $OUT/s8medium2.tgz -C $OUT s8medium2 && rm -rf $R
