#!/bin/bash
# Session 20, H100, call 4: the test suite's second part (the real LAPACK
# testers with every call on the device, session7/suite.sh part2) on the
# final device code (call 3's, where part 1 ran), through bench/gpu_run.sh;
# bounded to the device time left:
#   bash bench/gpu_run.sh "bash bench/results/h100/session20/call4.sh"
set -u
OUT=${OUT:-/tmp/out}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $OUT/machine-call4.txt
timeout 540 bash bench/results/h100/session7/suite.sh part2 > $OUT/suite-part2.txt 2>&1
echo "part2 exit $? at ${SECONDS} s" | tee -a $OUT/suite-part2.txt
