#!/bin/bash
# Session 11, H100, call 9: a third and fourth round of call 7's D small
# row check (splitk_k 256 against GPUBLAS3_PARAMS=d:small:splitk_k=512),
# D GEMM 512^3 and SYMM, SYR2K at 512, with 1024 x 512 x 1024 as a control
# whose plan the row does not change (2 slices either way); every result
# checked, median of 15.  Writes $OUT/call9.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call9; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
for r in 3 4; do
    for v in old new; do
        [ $v = old ] && e=(GPUBLAS3_PARAMS=d:small:splitk_k=512) || e=()
        env "${e[@]}" timeout 20 $B --shapes 512x512x512,1024x512x1024 --precisions d --peers gpublas3 --reps 15 \
            --csv $R/gemm-$v-$r.csv > $R/gemm-$v-$r.txt 2>&1
        env "${e[@]}" timeout 20 $B --routines symm,syr2k --sizes 512 --precisions d --peers gpublas3 --reps 15 \
            --csv $R/routines-$v-$r.csv > $R/routines-$v-$r.txt 2>&1
        echo "$v-$r at ${SECONDS} s: $(grep -hE 'checked against' $R/gemm-$v-$r.txt $R/routines-$v-$r.txt | tr '\n' ' ')"
    done
done
for f in $R/*.csv; do tail -n +2 $f | awk -F, -v n=$(basename $f .csv) '{printf "%-16s %-6s %-28s %sx%sx%s %.1f us\n", n, $10, $12, $13, $14, $15, $20*1e6}'; done | sort -k3,4 > $R/table.txt
cat $R/table.txt
tar czf $OUT/call9.tgz -C $OUT call9 && rm -rf $R
