#!/bin/bash
# Session 7, H100 call 9 (2026-11-23): rel_test_threads crashed (SIGSEGV
# after 2.2 s, no output) in call 8's suite, new since session 6.  Each
# variant twice, all at once: the test as built (the crash now prints the
# crashing thread's frames), the test linked with session 6's shim (no
# clGetEventInfo/clFlush/clWaitForEvents wrappers), the library with
# session 6's pool.c preloaded (no side queue).
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c9; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
for i in 1 2; do
    timeout 120 ./test_threads > $R/now$i.log 2>&1 &
    timeout 120 ./test_threads_oldshim > $R/oldshim$i.log 2>&1 &
    LD_PRELOAD=$BD/oldpool/libgpublas3.so.0.1.0 timeout 120 ./test_threads > $R/oldpool$i.log 2>&1 &
done
wait
for f in $R/*.log; do echo "$(basename $f .log): $(tail -1 $f)"; done | tee $R/summary.txt
grep -h -A30 "crashed here" $R/*.log | head -60
tar czf $OUT/s7c9.tgz -C $OUT s7c9 && rm -rf $R
