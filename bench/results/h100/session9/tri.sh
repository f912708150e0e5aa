#!/bin/bash
# Session 9, H100: triangle- and band-shaped calls (bench/NOTES.md section
# 26), through bench/gpu_run.sh, with two builds carried:
#   .device-carry/b-base  main at 5c9a003 (session 8's final tree)
#   .device-carry/b-main  the band's deepest tiles first (LPT) and split-K
#                         counting a band's work as half its tiles
# 1. cl_trmm*/cl_trsm*/cl_syrk* on the H100 with the new build;
# 2. GEMM, SYRK, SYR2K and TRMM at n = 1024, 2048, 4096 (TRMM on all four sides and
#    triangles), base and new alternating, two rounds;
# 3. SYRK, SYR2K, TRMM and GEMM at 1024 and 1536 with 1 to 4 slices of K
#    forced (GPUBLAS3_SPLITS), to size the medium rows' splitk_wgs;
# 4. a table of us per call last.  One tarball, $OUT/s9tri.tgz.
set -u
R=$OUT/s9tri; mkdir -p $R
export GPUBLAS3_DEVICE=gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
(cd /work/main/.device-carry/b-main && timeout 150 ctest -j6 -R 'cl_trmm|cl_trsm$|cl_trsm_h100|cl_syrk|cl_syr2k|cl_plan' \
    --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' $R/ctest.log)" | tee -a $R/exit.txt
run() { # name, build, routines, sizes, extra bench options and env...; skipped past 480 s
    local name=$1 b=$2 routines=$3 sizes=$4; shift 4
    if [ $SECONDS -gt 480 ]; then echo "$name skipped at ${SECONDS} s" | tee -a $R/exit.txt; return; fi
    # LD_LIBRARY_PATH first: gpu_run.sh puts .device-carry/build before the binaries' RUNPATH
    env LD_LIBRARY_PATH=/work/main/.device-carry/$b:$LD_LIBRARY_PATH GPUBLAS3_CACHE_DIR=/work/main/.device-carry/$b/cache \
        "$@" timeout 100 \
        /work/main/.device-carry/$b/bench/gpublas3-bench --routines $routines --sizes $sizes --precisions s,d \
        --peers gpublas3 --reps 5 --sample 512 --side L,R --uplo U,L --csv $R/$name.csv > $R/$name.txt 2>&1
    echo "$name exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/$name.txt)" | tee -a $R/exit.txt
}
ALL=gemm,syrk,syr2k,trmm
for round in 1 2; do
    run base$round b-base $ALL 1024,2048,4096
    run new$round b-main $ALL 1024,2048,4096
done
for s in 1 2 3 4; do
    run split$s b-main gemm,syrk,syr2k,trmm 1024,1536 GPUBLAS3_SPLITS=$s
done
GPUBLAS3_VERBOSE=1 LD_LIBRARY_PATH=/work/main/.device-carry/b-main:$LD_LIBRARY_PATH /work/main/.device-carry/b-main/bench/gpublas3-bench --routines $ALL --sizes 1024,4096 \
    --precisions s,d --peers gpublas3 --side L,R --uplo U,L --probe 2>&1 | grep 'plan:' > $R/plans.txt

python3 - $R > $R/table.txt <<'PY'
import csv, os, sys
R = sys.argv[1]
cols, rows = [], {}
for name in ["base1", "new1", "base2", "new2", "split1", "split2", "split3", "split4"]:
    f = os.path.join(R, name + ".csv")
    if not os.path.exists(f):
        continue
    cols.append(name)
    for r in csv.DictReader(open(f)):
        if r["status"].strip('"') == "ok":
            key = (r["routine"], r["precision"], r["options"].replace("col ", ""), int(r["m"]))
            rows.setdefault(key, {})[name] = "%.0f" % (float(r["median_s"]) * 1e6)
print("us per call (median of 5); base = 5c9a003, new = LPT + band split count; splitN = new with N slices forced")
print("routine p options n".ljust(40) + "".join(c.rjust(8) for c in cols))
for k in sorted(rows):
    print(("%s %s %s %d" % k).ljust(40) + "".join(rows[k].get(c, "-").rjust(8) for c in cols))
PY
cat $R/table.txt
grep -E "FAIL|Failed" $R/ctest.log | head -20
tar czf $OUT/s9tri.tgz -C $OUT s9tri && rm -rf $R
