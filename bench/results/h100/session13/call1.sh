#!/bin/bash
# Session 13, H100, call 1: where TRSM's leaf kernel spends its time
# (bench/NOTES.md 36: ~6 us a block of 32 where the count gave ~1.5),
# through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session13/call1.sh"
# 1. gpublas3-leaf-probe (the kernel alone, profiling events; one
#    work-group, and rhs 1024): the kernel as adopted with NVIDIA's
#    compiler report (registers, spills) and its PTX; W = 4 and 2 columns a
#    work-group; the ablations PROBE_SKIP 1 (no update), 2 (no diagonal
#    work), 4 (no inverse/T loads), 3 and 7;
# 2. the library's solve at 1024 with leaves of 1024, 512 and 256 (S, D),
#    GEMM in the same run, two rounds.
# Writes $OUT/call1.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call1; mkdir -p $R/ptx
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
P=$BD/bench/gpublas3-leaf-probe
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

probe() { # name, W, options
    timeout 90 env LEAF_PROBE_PTX=${PTX:-} $P 1024 20 "$2" "$3" > $R/probe-$1.txt 2>&1
    echo "probe $1 exit $? at ${SECONDS} s: $(grep -E '^check' $R/probe-$1.txt)"
}
PTX=$R/ptx probe w8-verbose 8 "-cl-nv-verbose"
probe w4 4 ""
probe w2 2 ""
for s in 1 2 4 3 7; do probe skip$s 8 "-DPROBE_SKIP=$s"; done
probe w8 8 ""

for r in 1 2; do
    for leaf in 1024 512 256; do
        timeout 40 env GPUBLAS3_PARAMS=trsm_leaf=$leaf $B --routines gemm,trsm --precisions s,d --peers gpublas3 \
            --reps 5 --sample 256 --side L --uplo L --transA N --diag N --sizes 1024,2048 \
            --csv $R/leaf$leaf-$r.csv > $R/leaf$leaf-$r.txt 2>&1
        echo "leaf$leaf-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/leaf$leaf-$r.txt)"
    done
done
for f in $R/probe-*.txt; do echo "== $f"; grep -vE '^(warning|$)' $f | grep -vE 'build log|ptxas info +: (Compiling|Function properties)' | head -60; done
tar czf $OUT/call1.tgz -C $OUT call1
