#!/bin/bash
# Session 13, H100, call 2: the leaf kernel's variants (call 1 found its
# accumulators in local memory, the owner's rows indexed by a runtime slot,
# and the kernel latency-bound: one work-group as slow as 128), through
# bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session13/call2.sh"
# 1. gpublas3-leaf-probe with NVIDIA's compiler report and PTX: UPDATE=1
#    (call 1's update, owners found by row), UPDATE=2 (the update in chunks
#    of CH columns of L across every slot, X read once per column), DIAG=2
#    (the diagonal work by 2 x 32 work-items of 4 columns each), together,
#    and W = 4;
# 2. the library's solve with DIAG=2 UPDATE=2 (GPUBLAS3_CL_OPTIONS) against
#    its default, GEMM in the same run, two rounds.
# Writes $OUT/call2.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call2; mkdir -p $R/ptx
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
P=$BD/bench/gpublas3-leaf-probe
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

probe() { # name, W, options
    mkdir -p $R/ptx/$1
    timeout 90 env LEAF_PROBE_PTX=$R/ptx/$1 $P 1024 15 "$2" "-cl-nv-verbose $3" > $R/probe-$1.txt 2>&1
    echo "probe $1 exit $? at ${SECONDS} s: $(grep -E '^check' $R/probe-$1.txt)"
}
probe u1 8 "-DUPDATE=1"
probe u2c8 8 "-DUPDATE=2 -DCH=8"
probe d2 8 "-DDIAG=2"
probe d2u2c8 8 "-DDIAG=2 -DUPDATE=2 -DCH=8"
probe d2u2c16 8 "-DDIAG=2 -DUPDATE=2 -DCH=16"
probe w4d2u2c8 4 "-DDIAG=2 -DUPDATE=2 -DCH=8"

for r in 1 2; do
    for v in default new; do
        o=""; [ $v = new ] && o="-DDIAG=2 -DUPDATE=2 -DCH=8"
        timeout 60 env GPUBLAS3_CL_OPTIONS="$o" $B --routines gemm,trsm --precisions s,d --peers gpublas3 \
            --reps 5 --sample 256 --side L --uplo L --transA N --diag N --sizes 128,256,512,1024,2048,4096 \
            --csv $R/lib-$v-$r.csv > $R/lib-$v-$r.txt 2>&1
        echo "lib-$v-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/lib-$v-$r.txt)"
    done
done
for f in $R/probe-*.txt; do echo "== $f"; grep -E '^[sd] |^check|registers|stack' $f; done
tar czf $OUT/call2.tgz -C $OUT call2
