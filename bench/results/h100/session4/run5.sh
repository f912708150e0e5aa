#!/bin/bash
# Session 4, fifth H100 call (2026-11-22): the test suite's GPU part on the
# final tree (less Oclgrind, the sanitizer rebuilds, the downstream packages
# and MPICH, which are not there, and test_memlimits, over 150 s there;
# LAPACK's suite included), then LAPACK end to end at n = 2048 and 4096,
# best of 2 in each process (call 3 took best of 1, so its small sizes
# carried the kernels' first compilation).  Run through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
R=$OUT/r5; mkdir -p $R
start=$(date +%s)
(cd $BD && timeout 320 ctest -j8 --timeout 150 -LE "oclgrind|sanitizers|scalapack|mpich" \
    -E "^downstream_|rel_test_memlimits" --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/ctest.log)"
grep -E "^\s+[0-9]+ - " $R/ctest.log
grep -oE "Start +[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/started
grep -oE "Test +#[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/done
echo "unfinished: $(comm -23 /tmp/started /tmp/done | tr '\n' ' ')"
(cd $BD && timeout 60 ctest -R rel_test_pool -V) > $R/pool.log 2>&1; grep -E "note:|Passed|Failed" $R/pool.log
DEBROOT=/tmp/debs timeout 160 sh bench/lapack_e2e.sh $BD $R/e2e "" 2048,4096 2 > $R/e2e.txt 2>&1
echo "e2e exit $?"; tail -n 14 $R/e2e.txt
tar czf $OUT/r5.tgz -C $OUT r5 && rm -rf $R
