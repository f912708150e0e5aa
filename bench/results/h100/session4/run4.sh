#!/bin/bash
# Session 4, fourth H100 call (2026-11-22): the test suite's GPU part on the
# merged tree (less Oclgrind, the sanitizer rebuilds, the downstream
# packages and MPICH, which are not there; LAPACK's suite included), then
# TRSM's old/new A/B (trsm_ab.sh) and the host DGEMM A/B (host_ab.sh).
# Run through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
start=$(date +%s)
(cd $BD && timeout 320 ctest -j8 --timeout 150 -LE "oclgrind|sanitizers|scalapack|mpich" \
    -E "^downstream_|rel_test_memlimits" --output-on-failure) > $OUT/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $OUT/ctest.log)"
grep -E "^\s+[0-9]+ - |note:" $OUT/ctest.log
grep -oE "Start +[0-9]+: \S+" $OUT/ctest.log | awk '{print $3}' | sort > /tmp/started
grep -oE "Test +#[0-9]+: \S+" $OUT/ctest.log | awk '{print $3}' | sort > /tmp/done
echo "unfinished: $(comm -23 /tmp/started /tmp/done | tr '\n' ' ')"
(cd $BD && timeout 60 ctest -R rel_test_pool -V) 2>&1 | grep -E "note:|Passed|Failed"
[ -f bench/results/h100/session4/trsm_ab.sh ] && timeout 120 bash bench/results/h100/session4/trsm_ab.sh > $OUT/trsm_ab.txt 2>&1
echo "trsm_ab exit $?"; tail -n 30 $OUT/trsm_ab.txt
timeout 140 bash bench/results/h100/session4/host_ab.sh > $OUT/host_ab.txt 2>&1
echo "host_ab exit $?"; cat $OUT/host_ab/table.txt 2>/dev/null || tail -20 $OUT/host_ab.txt
