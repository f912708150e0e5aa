#!/bin/bash
# Session 13, H100, call 5: did the drop-ins' new TRSM price (session 13)
# change LU and Cholesky at 8192?  Call 4 had SGETRF 2.68 s with gpublas3
# where session 6 had 1.99 (the host's own configurations were 1.2x slower
# too).  gpublas3 preloaded from this tree's build ("new") and from the
# build of b71f6f7 ("old", before the new price, in .device-carry/old),
# alternating, three rounds, best of 2 each, with OpenBLAS's LAPACK once a
# round for the host's state; then one verbose run of each (where the calls
# went).  Through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session13/call5.sh"
set -u
BD=/work/main/.device-carry/build
OLD=/work/main/.device-carry/old
R=$OUT/call5; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd /work/main
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
for round in 1 2 3; do
    for v in new old; do
        b=$BD; [ $v = old ] && b=$OLD
        DEBROOT=/tmp/debs CONFIGS=gpublas3 VERBOSE_N=0 timeout 150 sh bench/lapack_e2e.sh $b $R/$v-$round \
            sgetrf,spotrf,dgetrf 8192 2 > $R/$v-$round.log 2>&1
        echo "$v-$round exit $? at ${SECONDS} s: $(grep -E '^[sd](getrf|potrf)' $R/$v-$round/table.txt | tr -s ' ' | tr '\n' ';')"
    done
    DEBROOT=/tmp/debs CONFIGS=openblas timeout 60 sh bench/lapack_e2e.sh $BD $R/openblas-$round sgetrf,spotrf 8192 1 \
        > $R/openblas-$round.log 2>&1
    echo "openblas-$round at ${SECONDS} s: $(grep -E '^[sd](getrf|potrf)' $R/openblas-$round/table.txt | tr -s ' ' | tr '\n' ';')"
done
for v in new old; do
    b=$BD; [ $v = old ] && b=$OLD
    DEBROOT=/tmp/debs CONFIGS=gpublas3 VERBOSE_N=8192 timeout 60 sh bench/lapack_e2e.sh $b $R/$v-verbose sgetrf 8192 1 \
        > $R/$v-verbose.log 2>&1
    echo "$v-verbose at ${SECONDS} s: $(tail -3 $R/$v-verbose/meta.txt | tr '\n' ';')"
done
tar czf $OUT/call5.tgz -C $OUT call5
