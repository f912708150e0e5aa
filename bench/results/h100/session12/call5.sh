#!/bin/bash
# Session 12, H100, call 5 (the final tree, as call 4), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session12/call5.sh"
# The suite's first part (session7/suite.sh part1: call 3 ran it on the
# leaf kernel's third version, since replaced by the first) and, beside it,
# the four complex least-squares LAPACK testers that call 4 left out.
# Writes $OUT/suite-part1.tgz and $OUT/call5.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=/work/main/.device-carry/build
R=$OUT/call5; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
# a copy of the build for the second ctest, so that the two do not share
# Testing/ (CTestCostData, LastTest.log)
cp -a $BD /tmp/b2
(cd /tmp/b2 && sed -i "s|$BD|/tmp/b2|g" $(grep -rl "$BD" --include=CTestTestfile.cmake .) && \
    timeout 470 ctest -j4 --timeout 460 -R 'netlib_lapack_[cz]_ls' --output-on-failure) > $R/ls.log 2>&1 &
ls_pid=$!
bash bench/results/h100/session7/suite.sh part1
wait $ls_pid
echo "ls exit $? at ${SECONDS} s: $(grep -E 'tests passed' $R/ls.log)"
grep -E 'Test +#' $R/ls.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/'
tar czf $OUT/call5.tgz -C $OUT call5
