#!/bin/bash
# Session 7, H100 call 10 (2026-11-23): the pool's own queue only for
# out-of-order callers (call 9: shared by every call it crashed a driver
# thread under rel_test_threads): the suite's first part again
# (suite.sh part1), then rel_test_threads three more times at once.
set -u
bash bench/results/h100/session7/suite.sh part1
BD=/work/main/.device-carry/build
cd $BD/tests/reliability
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
for i in 1 2 3; do timeout 120 ./test_threads > /tmp/threads$i.log 2>&1 & done
wait
for i in 1 2 3; do echo "test_threads run $i: $(tail -1 /tmp/threads$i.log)"; done
