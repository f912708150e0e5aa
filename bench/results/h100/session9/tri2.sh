#!/bin/bash
# Session 9, H100: the triangle- and band-shaped calls' second call
# (bench/NOTES.md section 26), through bench/gpu_run.sh, on the build of
# the commit with the medium rows' splitk_wgs (b-main):
# 1. GEMM, SYRK, SYR2K and TRMM at n = 1024 and 1536 on the committed plan
#    (now1, now2) and with the small set forced (GPUBLAS3_SHAPE=small: more,
#    smaller tiles, so that a triangle's or band's short tiles free compute
#    units), alternating; 2. the plans; 3. a table of us per call last.
# One tarball, $OUT/s9tri2.tgz.
set -u
R=$OUT/s9tri2; mkdir -p $R
export GPUBLAS3_DEVICE=gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
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
run now1 b-main $ALL 1024,1536
run small1 b-main $ALL 1024,1536 GPUBLAS3_SHAPE=small
run now2 b-main $ALL 1024,1536
run small2 b-main $ALL 1024,1536 GPUBLAS3_SHAPE=small
GPUBLAS3_VERBOSE=1 LD_LIBRARY_PATH=/work/main/.device-carry/b-main:$LD_LIBRARY_PATH /work/main/.device-carry/b-main/bench/gpublas3-bench --routines $ALL --sizes 1024,1536 \
    --precisions s,d --peers gpublas3 --side L,R --uplo U,L --probe 2>&1 | grep 'plan:' > $R/plans.txt
python3 - $R > $R/table.txt <<'PY'
import csv, os, sys
R = sys.argv[1]
cols, rows = [], {}
for name in ["now1", "small1", "now2", "small2"]:
    f = os.path.join(R, name + ".csv")
    if not os.path.exists(f):
        continue
    cols.append(name)
    for r in csv.DictReader(open(f)):
        if r["status"].strip('"') == "ok":
            key = (r["routine"], r["precision"], r["options"].replace("col ", ""), int(r["m"]))
            rows.setdefault(key, {})[name] = "%.0f" % (float(r["median_s"]) * 1e6)
print("us per call (median of 5); now = the committed plan; small = the small set forced")
print("routine p options n".ljust(40) + "".join(c.rjust(8) for c in cols))
for k in sorted(rows):
    print(("%s %s %s %d" % k).ljust(40) + "".join(rows[k].get(c, "-").rjust(8) for c in cols))
PY
cat $R/table.txt
tar czf $OUT/s9tri2.tgz -C $OUT s9tri2 && rm -rf $R
