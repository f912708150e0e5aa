#!/bin/bash
# Session 10, H100: the skinny class against the medium set.  The final
# call (final10/) timed 64x8192x8192 at 337-377 us forced to the medium
# set against 457-476 on its plan (the skinny set), S and D.  This call:
# skinny outputs of both orientations, default plan and GPUBLAS3_SHAPE=medium
# alternating, two rounds, every result checked first; the plans.
#   bash bench/gpu_run.sh "bash bench/results/h100/session10/skinny10.sh"
set -u
BD=/work/main/.device-carry/build
B=$BD/bench/gpublas3-bench
R=$OUT/skinny10; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
SH=64x8192x8192,8192x64x8192,64x4096x4096,4096x64x4096,32x8192x8192,8192x32x8192,64x16384x4096,64x8192x8192:TN,64x8192x8192:NT
for v in plan medium; do
    [ $v = medium ] && e=(GPUBLAS3_SHAPE=medium) || e=()
    env "${e[@]}" GPUBLAS3_VERBOSE=1 timeout 20 $B --shapes $SH --precisions s,d --peers gpublas3 --probe 2>&1 |
        grep 'plan: ' | sed -E 's/.*plan: //' > $R/plans-$v.txt
done
for r in 1 2; do
    for v in plan medium; do
        [ $SECONDS -gt 100 ] && { echo "$v-$r skipped at ${SECONDS} s"; continue; }
        [ $v = medium ] && e=(GPUBLAS3_SHAPE=medium) || e=()
        env "${e[@]}" timeout 30 $B --shapes $SH --precisions s,d --peers gpublas3 --reps 5 --sample 16 \
            --csv $R/$v-$r.csv > $R/$v-$r.txt 2>&1
        echo "$v-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/$v-$r.txt)"
    done
done
tar czf $OUT/skinny10.tgz -C $OUT skinny10
