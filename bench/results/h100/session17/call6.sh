#!/bin/bash
# Session 17, H100, call 6: the test suite's second part (the real LAPACK
# testers with every call on the device, session7/suite.sh part2) on the
# final tree, through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session17/call6.sh"
set -u
OUT=${OUT:-/tmp/out}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $OUT/machine-call6.txt
timeout 580 bash bench/results/h100/session7/suite.sh part2 > $OUT/suite-part2.txt 2>&1
echo "part2 exit $? at ${SECONDS} s" | tee -a $OUT/suite-part2.txt
