#!/bin/bash
# Session 13, H100, call 7: two more ablations of the leaf kernel, to tell
# the update's local-memory reads from its loads of L (NOTES 37), through
# bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session13/call7.sh"
# call7.patch adds PROBE_SKIP bits 8 (the update reads X's first row for
# every column of L: one local read per slot where there were 256) and 16
# (the update's L from registers: no loads of L), and SLOTLOOP=1 (the
# update's slot loop not unrolled: a quarter of its code).  Also call 2's
# UPDATE=2 with CH=32 (every load of a block's update issued at once).
# Writes $OUT/call7.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call7; mkdir -p $R
P=$BD/bench/gpublas3-leaf-probe
H=bench/results/h100/session13
patch -s -o /tmp/v7.cl kernels/trsm.cl < $H/call7.patch
patch -s -o /tmp/v2.cl kernels/trsm.cl < $H/call2/variants.patch
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
probe() { # name, kernel file, options
    timeout 90 env LEAF_PROBE_KERNEL=$2 $P 1024 15 8 "-cl-nv-verbose $3" > $R/probe-$1.txt 2>&1
    echo "probe $1 exit $? at ${SECONDS} s: $(grep -E '^check' $R/probe-$1.txt)"
}
probe v1 /tmp/v7.cl ""
probe skip8 /tmp/v7.cl "-DPROBE_SKIP=8"
probe skip16 /tmp/v7.cl "-DPROBE_SKIP=16"
probe skip24 /tmp/v7.cl "-DPROBE_SKIP=24"
probe slotloop /tmp/v7.cl "-DSLOTLOOP=1"
probe u2c32 /tmp/v2.cl "-DUPDATE=2 -DCH=32"
for f in $R/probe-*.txt; do echo "== $f"; grep -E '^[sd] +1 +(512|1024)|^[sd] +0 +1024|^check|registers|stack' $f | tr -s ' ' | paste -sd ';'; done
tar czf $OUT/call7.tgz -C $OUT call7
