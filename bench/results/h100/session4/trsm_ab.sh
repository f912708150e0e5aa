#!/bin/bash
# Session 4 (issue 11, branch trsm2): TRSM's launch chain, old settings
# against new ones in one run, so that the H100 picks trsm_direct's default
# (bench/NOTES.md, section 12).  Run from the repository root through
# bench/gpu_run.sh, e.g.
#   bash bench/gpu_run.sh "bash bench/results/h100/session4/trsm_ab.sh"
# Writes $OUT/trsm_ab-*.txt and a table, $OUT/trsm_ab.table, printed last
# too (gpu_run.sh logs it in $OUT/commands.log): GFLOP/s, useful flops
# M^2 N; the gemm rows are our GEMM at the same n.  At most about 115 s of
# wall time: every run gets what is left of a 112 s budget, in order of
# priority, and is skipped when too little is left (the first run also
# compiles the kernels; lib/diskcache.c keeps them for the later runs).
# n = 128 is one diagonal block (the inversion plus one refined block): the
# fixed cost of every TRSM.  8192 runs in single precision only: its host
# check (OpenBLAS on the host, about 110 GFLOP/s in double there) takes
# most of a run.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
# (B, DEV, SIZES, BIG, MID: a dry run elsewhere, e.g. on PoCL with small sizes)
B=${B:-/work/main/.device-carry/build/bench/gpublas3-bench}
DEV=${DEV:-gpu}
SIZES=${SIZES:-128,1024,4096}
MID=${MID:-4096}
BIG=${BIG:-8192}
SMALL=${SIZES#*,}
COMMON="--device $DEV --side L --uplo L --transA N --diag N --peers gpublas3 --reps 5"
start=$(date +%s)
deadline=$((start + 112))

# run NAME PARAMS CAP ARGS...: one bench run under GPUBLAS3_PARAMS=PARAMS
# (and GPUBLAS3_CHAIN=$CHAIN), at most CAP seconds and never past the deadline
CHAIN=events
run() {
    local name=$1 params=$2 cap=$3
    shift 3
    local left=$((deadline - $(date +%s)))
    [ "$left" -lt "$cap" ] && cap=$left
    if [ "$cap" -lt 8 ]; then
        echo "$name: skipped (${left} s left)" | tee -a "$OUT/trsm_ab-skipped.txt"
        return
    fi
    local t0=$(date +%s)
    GPUBLAS3_CHAIN=$CHAIN GPUBLAS3_PARAMS=$params timeout "$cap" "$B" $COMMON "$@" > "$OUT/trsm_ab-$name.txt" 2>&1
    echo "$name ($params, GPUBLAS3_CHAIN=$CHAIN): exit $? after $(( $(date +%s) - t0 )) s" >> "$OUT/trsm_ab-runs.txt"
}

# old: the H100's defaults before this branch's switch (nb 128, refined, packed products)
OLD="trsm_direct=0"
# new: blocks' products and the updates of K = 128 direct; then with direct
# tiles of 4 x 2 and 4 x 4 elements per work-item (the GPU default is 1 x 1)
NEW="trsm_direct=128"
NEW42="trsm_direct=128,direct_wm=4,direct_wn=2"
NEW44="trsm_direct=128,direct_wm=4,direct_wn=4"
NEW256="trsm_direct=256,direct_wm=4,direct_wn=2"

run old "$OLD" 35 --routines gemm,trsm --sizes $SIZES --precisions s,d
run new "$NEW" 16 --routines trsm --sizes $SIZES --precisions s,d
run new42 "$NEW42" 16 --routines trsm --sizes $SIZES --precisions s,d
# 8192: the old settings and the best new one at 4096 (single precision)
best=new
bestrate=0
for n in new new42; do
    r=$(awk '$1 == "strsm" && $4 == '"$MID"' { print $5 }' "$OUT/trsm_ab-$n.txt" 2>/dev/null | head -n 1)
    if [ -n "$r" ] && awk -v a="$r" -v b="$bestrate" 'BEGIN { exit !(a > b) }'; then best=$n; bestrate=$r; fi
done
bestparams=$([ "$best" = new42 ] && echo "$NEW42" || echo "$NEW")
run old$BIG "$OLD" 30 --routines trsm --sizes $BIG --precisions s
run ${best}$BIG "$bestparams" 30 --routines trsm --sizes $BIG --precisions s
# then, while time is left: the chain without wait lists between the steps
# of one call (lib/launch.c), the other direct tiles
CHAIN=order run new42order "$NEW42" 14 --routines trsm --sizes $SIZES --precisions s,d
CHAIN=order run oldorder "$OLD" 14 --routines trsm --sizes $SMALL --precisions s,d
run new44 "$NEW44" 14 --routines trsm --sizes $SMALL --precisions s,d
run new256 "$NEW256" 14 --routines trsm --sizes $SMALL --precisions s,d

# the commands of one solve of the second size (1024) (GPUBLAS3_VERBOSE), old and new
for c in "old:$OLD" "new:$NEW"; do
    left=$((deadline - $(date +%s)))
    [ "$left" -lt 5 ] && break
    GPUBLAS3_VERBOSE=1 GPUBLAS3_PARAMS=${c#*:} timeout "$left" "$B" --device $DEV --side L --uplo L --transA N \
        --diag N --peers gpublas3 --reps 1 --routines trsm --sizes ${SMALL%%,*} --precisions s 2>&1 |
        grep "gpublas3: trsm:" | tail -n 1 | sed "s/^/${c%%:*} /" >> "$OUT/trsm_ab-commands.txt"
done

{
    echo "---- trsm_ab: $(( $(date +%s) - start )) s; GFLOP/s (median of 5)"
    cat "$OUT/trsm_ab-runs.txt" "$OUT/trsm_ab-skipped.txt" "$OUT/trsm_ab-commands.txt" 2>/dev/null
    for f in "$OUT"/trsm_ab-*.txt; do
        name=$(basename "$f" .txt)
        name=${name#trsm_ab-}
        awk -v c="$name" '$1 ~ /^[sd](gemm|trsm)$/ && $2 == "col" { printf "%-10s %-6s %6s %10s\n", c, $1, $4, $5 }' "$f"
    done
} | tee "$OUT/trsm_ab.table"
