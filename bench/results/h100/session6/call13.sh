#!/bin/bash
# Session 6, H100 call 13 (2026-11-23): what call 12 could not finish
# under -j12 (LAPACK's suite under the crossover model: liblapack-test-*,
# three at a time); the plan check (plan_check.sh, helper branch plan6);
# SPOTRF at n = 16384 with gpublas3 after the host rate became per size
# (call 10: 10.5 s, as slow as reference), timed, then once verbose.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c13; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
start=$(date +%s)
(cd $BD && timeout 300 ctest -j3 --timeout 290 -R "liblapack-test" --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/ctest.log)"
grep -E "^\s+[0-9]+ - |Test +#" $R/ctest.log
cp $BD/Testing/Temporary/LastTest.log $R/ 2>/dev/null
grep -E "seconds|ratio|time" $R/LastTest.log | head -12
cd /work/main
OUT=$R bash bench/results/h100/session6/plan_check.sh > $R/plan_check.log 2>&1
tail -45 $R/plan_check.log
DEBROOT=/tmp/debs CONFIGS=gpublas3 VERBOSE_N=16384 timeout 150 sh bench/lapack_e2e.sh $BD $R/spotrf spotrf 16384 1 > $R/spotrf.log 2>&1
cat $R/spotrf/lapack_e2e.csv $R/spotrf/verbose.csv
zcat $R/spotrf/gpublas3.log.gz | grep -o 'on the host BLAS\|to the device' | sort | uniq -c
zcat $R/spotrf/gpublas3.log.gz | grep 'SGEMM.*n=64' | awk 'NR % 16 == 1' | cut -c1-260 | head -20 > $R/spotrf/sgemm_sample.txt
cat $R/spotrf/sgemm_sample.txt
rm -f $R/spotrf/gpublas3.log.gz
tar czf $OUT/c13.tgz -C $OUT c13 && rm -rf $R
