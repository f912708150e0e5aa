#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The host-path timings on the GPU machine: DGEMM from host
# arrays (dgemm_) against max(pinned transfer, device compute) and against
# NVBLAS, in one run, plus the knob worth a sweep there (panel size), and
# the crossover model's constants (crossover_measure).
# Usage, from the repository root, after building into BUILD
# and registering the OpenCL driver (see /work/shared/DEVICE.md):
#
#   sh tests/host/run_host_timing.sh BUILD OUTDIR [N]
#
# Needs libgpublas3 and libOpenCL on LD_LIBRARY_PATH, and for NVBLAS
# libnvblas.so and a CPU BLAS it can load (libopenblas.so.0, named in the
# NVBLAS config host_timing writes unless NVBLAS_CONFIG_FILE is set).
set -u
BUILD=${1:?build folder}
OUT=${2:?output folder}
N=${3:-8192}
T=$BUILD/tests/host/host_timing
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$BUILD:${LD_LIBRARY_PATH:-}"

run() {  # label, then environment settings for host_timing
    label=$1; shift
    echo "== $label"
    env "$@" GPUBLAS3_VERBOSE=1 "$T" "$N" 3 1.0 >"$OUT/timing_$label.txt" 2>"$OUT/timing_$label.err"
    echo "exit status $?" >>"$OUT/timing_$label.txt"
    grep -E "^(device|h2d|d2h|compute|bound|floor|host copy|dgemm_|nvblas|check|exit)" "$OUT/timing_$label.txt"
    grep "gpublas3: DGEMM" "$OUT/timing_$label.err" | tail -n 1
}

run default GPUBLAS3_PANEL_KB=
run panel64m GPUBLAS3_PANEL_KB=65536
run panel8m GPUBLAS3_PANEL_KB=8192
echo "== beta0"
GPUBLAS3_VERBOSE=1 "$T" "$N" 3 0.0 2>"$OUT/timing_beta0.err" | tee "$OUT/timing_beta0.txt" | grep -E "^(bound|floor|dgemm_|nvblas)"

# The crossover model's constants on this device (the row for
# routines/dropin/crossover.c), against OpenBLAS as the host BLAS.
echo "== crossover"
GPUBLAS3_VERBOSE= "$BUILD/tests/host/crossover_measure" 4096 libopenblas.so.0 | tee "$OUT/crossover.txt" |
  grep -E "GEMM|row|\{"
