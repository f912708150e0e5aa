#!/bin/bash
# Session 10: run at last with the cuts lowered (rounds 330 s, edges 350, cuBLAS 380).
# The D large set's next H100 call (bench/NOTES.md section 27): session 9's
# call (dtune9.sh) timed out each run at 60 s after 9-11 of its 13 shapes
# (a run of 13 checked shapes takes 60-65 s there: data set-up and the
# OpenBLAS check, not the GPU) and never reached the 128x128 sets.  This one:
# 5 sets x 6 shapes, two rounds alternating (about 30-40 s a run, 100 s
# allowed), every result checked (leading 128 columns); then edge shapes and
# the other routines on the best 128x128 set of round 1; cuBLAS; NVIDIA's
# registers.  Worst case 540 s.
#   old   the session-2 row (64x128x16, mma m16n8k4, kwi 4, no db)
#   new   the committed row (64x128x8, mma m16n8k8, db; session 9)
#   c2w44, c3w44k1, c2w44db8: 128x128 on 4x4 warps (NOTES 27's table)
# Runs are skipped past 440 s.  Writes $OUT/dtune9n.tgz.  Run from the
# copy's root:  bash bench/gpu_run.sh "bash bench/results/h100/session9/dtune9-next.sh"
set -u
BD=${DTUNE9_BD:-/work/main/.device-carry/build}  # DTUNE9_*: a dry run elsewhere
B=$BD/bench/gpublas3-bench
R=$OUT/dtune9n; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 || echo "nvcc failed" >> $R/nvcc.log) &
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt

SH=${DTUNE9_SH:-8192x8192x8192,4096x4096x4096,2048x2048x2048,8192x8192x256,4096x4096x128,8192x8192x256:NT}
# name: the D large set's fields (the rest as the row: vwm vwn 2, sa sb 1).
# Double buffering only at kwg 8 for 64x128: at kwg 16 the two buffers take
# 49152 bytes, and NVIDIA's compiler adds 16 of its own (25616 for the row's
# 25600, NOTES 25), past the 48 KB a work-group may have
declare -A P
P[old]="mma=2,mwg=64,nwg=128,kwg=16,mdimc=2,ndimc=4,kwi=4,db=0,pad=4"
P[new]="mma=3,mwg=64,nwg=128,kwg=8,mdimc=2,ndimc=4,kwi=1,db=1,pad=4"
P[c2w44]="mma=2,mwg=128,nwg=128,kwg=16,mdimc=4,ndimc=4,kwi=2,db=0,pad=4"
P[c3w44k1]="mma=3,mwg=128,nwg=128,kwg=16,mdimc=4,ndimc=4,kwi=1,db=0,pad=4"
P[c2w44db8]="mma=2,mwg=128,nwg=128,kwg=8,mdimc=4,ndimc=4,kwi=2,db=1,pad=4"
# 128x128 tiles: 2048^2 has 256 of them, 1.9 per SM, which the medium class
# (medium_wgs 3, the D medium row) would take; medium_wgs 2 keeps 2048^3 on
# the large set being measured (the medium set there: NOTES 24, 508 us)
spec() { case $1 in c[23]*) echo "d:large:${P[$1]};d:medium:medium_wgs=2" ;; *) echo "d:large:${P[$1]}" ;; esac; }
ORDER1="old new c2w44 c3w44k1 c2w44db8"
ORDER2="c2w44db8 c3w44k1 c2w44 new old"
for n in $ORDER1; do echo "$n ${P[$n]}" >> $R/sets.txt; done

run() { # name, round: the set on $SH, checked, median of 5
    local n=$1 r=$2
    if [ $SECONDS -gt 330 ]; then echo "$n-$r skipped at ${SECONDS} s" | tee -a $R/exit.txt; return; fi
    GPUBLAS3_PARAMS="$(spec $n)" GPUBLAS3_CL_OPTIONS=${DTUNE9_CLOPT--cl-nv-verbose} GPUBLAS3_BUILD_LOG=1 \
        timeout 100 $B --shapes $SH --precisions d --peers gpublas3 --reps 5 --sample 128 \
        --csv $R/$n-$r.csv > $R/$n-$r.txt 2>&1
    echo "$n-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/$n-$r.txt)" | tee -a $R/exit.txt
    grep -iE 'ignored|refused|invalid' $R/$n-$r.txt | head -3 >> $R/exit.txt
}
# the plans (which class, split) of the current set and one 128x128 set
for n in new c2w44; do
    GPUBLAS3_PARAMS="$(spec $n)" GPUBLAS3_VERBOSE=1 timeout 30 $B --shapes $SH --precisions d --peers gpublas3 \
        --probe 2>&1 | grep 'plan:' > $R/plans-$n.txt
done
for n in $ORDER1; do run $n 1; done
for n in $ORDER2; do run $n 2; done
# geomean of round 1 per set; the best 128x128 one gets the edge checks
python3 - $R "$ORDER1" $(echo $SH | tr ',' '\n' | wc -l) > $R/rank.txt <<'PY'
import csv, math, os, sys
R, names, nsh = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
score = {}
for n in names:
    f = os.path.join(R, n + "-1.csv")
    if not os.path.exists(f): continue
    t = [float(r["median_s"]) for r in csv.DictReader(open(f)) if r["status"].strip('"') == "ok"]
    if len(t) == nsh: score[n] = math.exp(sum(map(math.log, t)) / len(t))
for n, s in sorted(score.items(), key=lambda kv: kv[1]):
    print(n, "%.1f" % (s * 1e6))
PY
for n in $(grep '^c' $R/rank.txt | head -1 | cut -d' ' -f1); do
    if [ $SECONDS -gt 350 ]; then echo "edge-$n skipped at ${SECONDS} s" | tee -a $R/exit.txt; continue; fi
    GPUBLAS3_PARAMS="$(spec $n)" GPUBLAS3_SHAPE=large timeout 30 $B --precisions d --peers gpublas3 --reps 1 \
        --shapes ${DTUNE9_EDGE:-1000x1000x1000,1000x1000x1000:TN,2047x1029x257:NT,4095x8191x129:TT,129x2049x3001,8193x8193x33} \
        --csv $R/edge-$n.csv > $R/edge-$n.txt 2>&1
    echo "edge-$n exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/edge-$n.txt)" | tee -a $R/exit.txt
    GPUBLAS3_PARAMS="$(spec $n)" GPUBLAS3_SHAPE=large timeout 30 $B --routines symm,syrk,syr2k,trmm,trsm \
        --sizes ${DTUNE9_SIZES:-1000,2049} --precisions d --peers gpublas3 --reps 1 --csv $R/routines-$n.csv > $R/routines-$n.txt 2>&1
    echo "routines-$n exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/routines-$n.txt)" | tee -a $R/exit.txt
done

wait
if [ $SECONDS -le 380 ]; then
    timeout 40 /tmp/cublas_peer --shapes $SH --precisions d --reps 5 --csv $R/cublas.csv > $R/cublas.txt 2>&1
    echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
fi

# NVIDIA's registers per set (ptxas lines of the build logs)
for n in $ORDER1; do
    echo "== $n"; grep -hiE 'entry function|registers|spill|smem' $R/$n-1.txt $R/$n-2.txt 2>/dev/null | sort | uniq -c
done > $R/registers.txt

python3 - $R "$ORDER1" > $R/table.txt <<'PY'
import csv, os, sys
R, names = sys.argv[1], sys.argv[2].split()
cols, rows = [], {}
key = lambda x: x["shape"] + (":" + x["options"].split("transA=")[1][0] + x["options"].split("transB=")[1][0]
                              if "transA=" in x["options"] else "")
for n in names:
    for r in ("1", "2"):
        f = os.path.join(R, n + "-" + r + ".csv")
        if not os.path.exists(f): continue
        for x in csv.DictReader(open(f)):
            if x["status"].strip('"') == "ok":
                rows.setdefault(key(x), {}).setdefault(n, []).append("%.0f" % (float(x["median_s"]) * 1e6))
    cols.append(n)
f = os.path.join(R, "cublas.csv")
if os.path.exists(f):
    for x in csv.DictReader(open(f)):
        if x["status"].strip('"') == "ok":
            rows.setdefault(key(x), {})["cublas"] = ["%.0f" % (float(x["median_s"]) * 1e6)]
    cols.append("cublas")
print("D, us per call (median of 5), round 1/round 2; cublas once")
print("shape".ljust(22) + "".join(c.rjust(12) for c in cols))
for s, v in rows.items():
    print(s.ljust(22) + "".join("/".join(v.get(c, ["-"])).rjust(12) for c in cols))
PY
cat $R/rank.txt $R/table.txt $R/registers.txt
grep -hE ' [1-9][0-9]* FAILED' $R/*.txt | head -10
tar czf $OUT/dtune9n.tgz -C $OUT dtune9n && rm -rf $R
