#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# One device per MPI rank, with MPICH: two ranks of one node, PoCL made to
# show two devices (standing in for two GPUs); each rank runs a few checked
# drop-in calls (test_host_env) and must report, under GPUBLAS3_VERBOSE,
# that it took the device its local rank gives: rank 0 device 0:0, rank 1
# device 0:1.
#   usage: mpi_ranks.sh MPIEXEC TEST_HOST_ENV
set -u
# (PoCL's platform only: a GPU machine's other platforms would change the count)
out=$(OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd POCL_DEVICES="pthread pthread" GPUBLAS3_VERBOSE=1 GPUBLAS3_CROSSOVER=0 "$1" -n 2 "$2" "local rank" 2>&1)
status=$?
echo "$out" | grep "local rank\|failure"
for r in 0 1; do
  echo "$out" | grep -q "local rank $r (MPI_LOCALRANKID): device 0:$r " ||
    { echo "FAIL: rank $r did not take device 0:$r"; status=1; }
done
exit $status
