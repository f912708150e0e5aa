#!/bin/bash
# Session 10, H100, the final tree, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session10/final10.sh"
# 1. the suite's first part (session7/suite.sh part1: everything but
#    Oclgrind, the sanitizer rebuilds, the downstream packages, MPICH and
#    the real LAPACK testers, at -j9; then LAPACK's suite under the
#    crossover model at -j3), about 200 s in session 8;
# 2. the real LAPACK testers that exercise the solve most, every call on the
#    device (netlib_lapack_[sd] and their trsm_direct variants: the tuned
#    trsm_cols/trsm_nb changed this session), at -j4, capped at 240 s.
# The whole second part (every netlib_lapack_*, 498 s at -j12 in session
# 8) does not fit this session's device time.  Writes $OUT/final10.tgz.
set -u
BD=/work/main/.device-carry/build
R=$OUT/final10; mkdir -p $R $BD/Testing/Temporary
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
cat $R/suite-part1.txt
[ -f $OUT/suite-part1.tgz ] && mv $OUT/suite-part1.tgz $R/
start=$(date +%s)
(cd $BD && timeout 240 ctest -j4 --timeout 230 -R 'netlib_lapack_[sd](_trsm_direct)?$' --output-on-failure) \
    > $R/lapack-sd.log 2>&1
echo "lapack s/d: ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/lapack-sd.log)"
grep -E "^\s+[0-9]+ - |Test +#" $R/lapack-sd.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
tar czf $OUT/final10.tgz -C $OUT final10 && rm -rf $R
