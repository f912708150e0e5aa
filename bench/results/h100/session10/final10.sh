#!/bin/bash
# Session 10, H100, the final tree, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session10/final10.sh"
# 1. the suite's first part (session7/suite.sh part1: everything but
#    Oclgrind, the sanitizer rebuilds, the downstream packages, MPICH and
#    the real LAPACK testers, at -j9; then LAPACK's suite under the
#    crossover model at -j3), about 200 s in session 8;
# 2. the real LAPACK testers that exercise the solve most, every call on the
#    device (netlib_lapack_[sd] and their trsm_direct variants: the tuned
#    trsm_cols/trsm_nb changed this session), at -j4, capped at 200 s;
# before both, the figures the session's merges changed (step 0 below).
# The whole second part (every netlib_lapack_*, 498 s at -j12 in session
# 8) does not fit this session's device time.  Writes $OUT/final10.tgz.
set -u
BD=/work/main/.device-carry/build
R=$OUT/final10; mkdir -p $R $BD/Testing/Temporary
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
# 0. the final tree's figures that this session's merges changed, checked
#    first, median of 5: the 128-wide outputs on their new plan (the large
#    set's split-K) against the medium set (GPUBLAS3_SHAPE=medium), twice
#    alternating; SYRK, SYR2K, TRMM, TRSM and GEMM at 1024 and 4096
W=16384x128x4096,128x8192x8192:TN,64x8192x8192
for r in 1 2; do
    for v in new medium; do
        [ $v = medium ] && e=(GPUBLAS3_SHAPE=medium) || e=()
        env "${e[@]}" timeout 25 $B --shapes $W --precisions s,d --peers gpublas3 --reps 5 --sample 16 \
            --csv $R/wide-$v-$r.csv > $R/wide-$v-$r.txt 2>&1
        echo "wide-$v-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/wide-$v-$r.txt)"
    done
done
timeout 40 $B --routines gemm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --precisions s,d --peers gpublas3 --reps 5 \
    --sample 256 --csv $R/routines.csv > $R/routines.txt 2>&1
echo "routines exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/routines.txt)"
bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
cat $R/suite-part1.txt
[ -f $OUT/suite-part1.tgz ] && mv $OUT/suite-part1.tgz $R/
start=$(date +%s)
(cd $BD && timeout 200 ctest -j4 --timeout 195 -R 'netlib_lapack_[sd](_trsm_direct)?$' --output-on-failure) \
    > $R/lapack-sd.log 2>&1
echo "lapack s/d: ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/lapack-sd.log)"
grep -E "^\s+[0-9]+ - |Test +#" $R/lapack-sd.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
tar czf $OUT/final10.tgz -C $OUT final10 && rm -rf $R
