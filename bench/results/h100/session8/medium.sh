#!/bin/bash
# Session 8, the medium class (issue 10, branch `medium`, bench/NOTES.md
# section 24), one H100 call through bench/gpu_run.sh:
#   1. gpublas3-tune --class medium for S (portable kernel) and D (fp64
#      mma), short searches started from the current small rows (the sets
#      1024^3 runs on today), written to medium.csv;
#   2. the medium rows applied to the medium class only (GPUBLAS3_PARAMS
#      "s:medium:...;d:medium:...", with medium_wgs, which turns the class
#      on) against the build's own plan ("old"), then the medium set forced
#      on every shape (GPUBLAS3_SHAPE=medium: where the boundary should
#      lie), and split-K forced on three of them: every result checked
#      first (OpenBLAS; --sample on the big outputs), median of 5 calls
#      after 20 ms of untimed ones;
#   3. cuBLAS (no TF32) on the same shapes in the same call;
#   4. SYMM, SYRK, SYR2K, TRMM, TRSM at n = 1024, 2048 with and without the
#      rows (their calls at these sizes take the medium set too);
#   5. each plan line (GPUBLAS3_VERBOSE, --probe), and a table of us per
#      call last.
# Writes one tarball, $OUT/s8medium.tgz.  About 6 minutes (runs are skipped
# past 470 s).  Run from the copy's root, with the build of this commit in
# .device-carry/build:  bash bench/gpu_run.sh "bash bench/results/h100/session8/medium.sh"
set -u
BD=/work/main/.device-carry/build
B=$BD/bench/gpublas3-bench
R=$OUT/s8medium; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
export GPUBLAS3_DEVICE=gpu
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 || echo "nvcc failed" >> $R/nvcc.log) &
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt

# 1. the searches (the H100's small rows as the starting points, their copy kernel kept)
S0="mwg=32,nwg=64,kwg=16,mdimc=16,ndimc=8,vwm=2,vwn=4,kwi=8,sa=1,sb=1,db=0,pad=0,wtm=4,nfirst=0,mma=0,copy_ts=64,copy_rs=4,copy_direct=0"
D0="mwg=32,nwg=64,kwg=16,mdimc=1,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,wtm=0,nfirst=0,mma=2,copy_ts=16,copy_rs=4,copy_direct=0"
timeout 150 $BD/bench/gpublas3-tune --device gpu --precision s --class medium --budget 75 --timeout 30 --no-copy \
    --start "$S0" --match "H100|H200" --out $R/medium.csv > $R/tune-s.log 2>&1
echo "tune s exit $?" | tee -a $R/exit.txt
timeout 150 $BD/bench/gpublas3-tune --device gpu --precision d --space mma --class medium --budget 75 --timeout 30 --no-copy \
    --start "$D0" --match "H100|H200" --out $R/medium.csv > $R/tune-d.log 2>&1
echo "tune d exit $?" | tee -a $R/exit.txt
SB=$(sed -n 's/^best: \(mwg=.*\)/\1/p' $R/tune-s.log | tail -1); SB=${SB:-$S0}
DB=$(sed -n 's/^best: \(mwg=.*\)/\1/p' $R/tune-d.log | tail -1); DB=${DB:-$D0}
grep -E "^(search|final|best)" $R/tune-s.log $R/tune-d.log

# 2. old plan, new plan, forced medium set, forced splits
# the medium rows as they would be committed: the class on (medium_wgs), the
# small rows' direct_max (a 1024^2 x 16 call stays direct), no split-K of its own
NEW="s:medium:$SB,medium_wgs=2,direct_max=256;d:medium:$DB,medium_wgs=2,direct_max=256"
echo "$NEW" > $R/params-new.txt
MID=256x256x256,512x512x512,768x768x768,1024x1024x1024,1536x1536x1536,2048x2048x2048,4096x4096x4096,1024x1024x4096,1536x1536x512,2048x2048x256,1024x1024x256
UPD=4096x4096x64,4096x4096x256,8192x8192x128,8192x8192x256,8192x8192x512,16384x16384x256,8192x8192x256:NT
FORCED=512x512x512,768x768x768,1024x1024x1024,1536x1536x1536,2048x2048x2048,4096x4096x4096,1024x1024x4096,1536x1536x512,2048x2048x256,1024x1024x256,4096x4096x64,4096x4096x256
run() { # name, shapes, sample, env...; skipped past 470 s, so that the call ends inside 10 minutes
    local name=$1 shapes=$2 sample=$3; shift 3
    if [ $SECONDS -gt 470 ]; then echo "$name skipped at ${SECONDS} s" | tee -a $R/exit.txt; return; fi
    env "$@" timeout 120 $B --shapes $shapes --precisions s,d --peers gpublas3 --reps 5 --sample $sample \
        --csv $R/$name.csv > $R/$name.txt 2>&1
    echo "$name exit $? $(grep -E 'checked against' $R/$name.txt)" | tee -a $R/exit.txt
}
routines() { # name, env...: the other routines at n = 1024, 2048 (issue 10: >= 0.7x our GEMM at 1024)
    local name=$1; shift
    if [ $SECONDS -gt 470 ]; then echo "$name skipped at ${SECONDS} s" | tee -a $R/exit.txt; return; fi
    env "$@" timeout 120 $B --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,2048 --precisions s,d \
        --peers gpublas3 --reps 5 --csv $R/$name.csv > $R/$name.txt 2>&1
    echo "$name exit $? $(grep -E 'checked against' $R/$name.txt)" | tee -a $R/exit.txt
}
probe() { # name, env...
    local name=$1; shift
    env "$@" GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $MID,4096x4096x64,4096x4096x256,8192x8192x256 --precisions s,d \
        --peers gpublas3 --probe 2>&1 | grep 'plan:' > $R/plans-$name.txt
}
probe old
probe new GPUBLAS3_PARAMS="$NEW"
run old-mid $MID 1024
run new-mid $MID 1024 GPUBLAS3_PARAMS="$NEW"
run forced-medium $FORCED 1024 GPUBLAS3_PARAMS="$NEW" GPUBLAS3_SHAPE=medium
run split2 1024x1024x1024,2048x2048x2048,1024x1024x4096 1024 GPUBLAS3_PARAMS="$NEW" GPUBLAS3_SHAPE=medium GPUBLAS3_SPLITS=2
run split4 1024x1024x4096,1536x1536x1536 1024 GPUBLAS3_PARAMS="$NEW" GPUBLAS3_SHAPE=medium GPUBLAS3_SPLITS=4
run new-upd $UPD 128 GPUBLAS3_PARAMS="$NEW"
run old-upd $UPD 128
routines old-routines
routines new-routines GPUBLAS3_PARAMS="$NEW"

# 3. cuBLAS on the same shapes, then old and new again in the other order (the spread)
wait
timeout 90 /tmp/cublas_peer --shapes $MID,$UPD --reps 5 --csv $R/cublas.csv > $R/cublas.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
run new-mid2 $MID 1024 GPUBLAS3_PARAMS="$NEW"
run old-mid2 $MID 1024

for r in old new; do echo "$r:"; grep -hE "^[sd](gemm|symm|syrk|syr2k|trmm|trsm) " $R/$r-routines.txt; done

# 4. us per call: shape, then each run's median (the second rounds beside the first)
python3 - $R > $R/table.txt <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
cols, rows = [], {}
for name in ["old-mid", "old-mid2", "new-mid", "new-mid2", "old-upd", "new-upd", "forced-medium", "split2", "split4", "cublas"]:
    f = os.path.join(R, name + ".csv")
    if not os.path.exists(f):
        continue
    col = name.replace("-mid", "").replace("-upd", "").replace("-medium", "")
    if col not in cols:
        cols.append(col)
    for r in csv.DictReader(open(f)):
        if r["status"].strip('"') != "ok":
            continue
        key = (r["precision"], r["shape"])
        rows.setdefault(key, {})[col] = "%.0f" % (float(r["median_s"]) * 1e6)
print("us per call (median of 5); old = the build's plan, new = + the medium rows, forced = the medium set on every shape")
print("p shape".ljust(24) + "".join(c.rjust(9) for c in cols))
for (p, s), v in sorted(rows.items(), key=lambda kv: (kv[0][0], [int(x) for x in kv[0][1].split(":")[0].split("x")])):
    print((p + " " + s).ljust(24) + "".join(v.get(c, "-").rjust(9) for c in cols))
PY
cat $R/table.txt
tar czf $OUT/s8medium.tgz -C $OUT s8medium && rm -rf $R
