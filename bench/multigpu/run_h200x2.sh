#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The multi-GPU measurements on the two-H200 machine (nvidia-h200-x2), in one
# call of at most 9 minutes:
#   (a) one DGEMM and one SGEMM call, n = N_CALL, on one queue, on two
#       queues of one GPU, and on two queues on the two GPUs (gpublas3-multiq:
#       checked by a residual and against the one-queue result first), and
#       the copy of half of C from GPU 1 to GPU 0 that the split pays;
#   (b) ScaLAPACK over gpublas3 (pdtime): PDGEMM and LU (PDGETRF), n = N_PD
#       and N_LU, on two ranks with one GPU each, on one rank with one GPU,
#       and on two CPU-only ranks (OpenBLAS), at the block sizes NBS.  PDGEMM
#       slices K by PBLAS's pilaenv_ (32), not by NB: the pilaenv shim sets it
#       to NB (PBLAS_NB), and one run keeps the reference 32 to show why;
#   (c) the PBLAS Level-3 testers (S, D, C, Z) on 4 ranks over the two GPUs.
# Steps run in order of importance and are skipped when the time budget
# (BUDGET seconds) would be overrun; every step's log is in $OUT, the
# RESULT lines in $OUT/results.txt, and a short table is printed last.
#
# Here, first: build into build/, then `sh bench/multigpu/prepare.sh`.
# There (device tool, kind nvidia-h200-x2, timeout_s 600, carry
# ["bench/multigpu/carry"]), from the repository root:
#
#   bash bench/multigpu/run_h200x2.sh
#
# Sizes and lists can be changed through the environment (defaults below);
# SMALL=1 shrinks everything to try the script on a CPU (PoCL: the two
# "GPUs" are then two sub-devices, or the one CPU device for the ranks).
# STEPS=call runs only (a), the one-call steps (about a minute at
# n = 16384): the short re-measurement after a change to the split.
set -u
CARRY=${CARRY:-bench/multigpu/carry}
BUILD=${BUILD:-$CARRY/build}
OUT=${OUT:-/tmp/g3out}
if [ "${SMALL:-0}" = 1 ]; then
    : "${N_CALL:=512}" "${N_PD:=1024}" "${N_LU:=1024}" "${N_CPU:=1024}" "${NBS:=64 256}" "${BUDGET:=300}"
fi
N_CALL=${N_CALL:-16384}   # one-call GEMM size
REPS=${REPS:-5}           # timed calls per mode after the first
N_PD=${N_PD:-16384}       # PDGEMM size
N_LU=${N_LU:-16384}       # LU size
N_CPU=${N_CPU:-16384}     # size of the CPU-only runs (PDGEMM and LU)
NBS=${NBS:-64 256 1024}   # block sizes swept
BUDGET=${BUDGET:-500}     # seconds for the whole script
STEPS=${STEPS:-all}       # all, or call: only (a)
START=$(date +%s)
mkdir -p "$OUT"
: >"$OUT/results.txt"

# ---- set-up: OpenCL driver, Debian packages, the rank wrapper ----
# always: the driver's library is on the loader's path there, but not in a
# fixed folder (a run of 2026-11-22 that looked for it found none and timed
# PoCL instead of the GPUs)
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
DEB=/tmp/g3deb
rm -rf "$DEB" && mkdir -p "$DEB"
for f in "$CARRY"/debs/*.deb; do
    case "$f" in
    # newer ones of the system stay in front, when it has them
    *libxml2_*) ldconfig -p | grep -q libxml2.so.2 && continue ;;
    *libudev1_*) ldconfig -p | grep -q libudev.so.1 && continue ;;
    esac
    dpkg -x "$f" "$DEB"
done
L=$DEB/usr/lib/x86_64-linux-gnu
export PATH="$DEB/usr/bin:$PATH"
# libblas.so.3 and liblapack.so.3 of every rank: OpenBLAS
export LD_LIBRARY_PATH="$BUILD:$L/openblas-pthread:$L:$DEB/lib/x86_64-linux-gnu:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
MPIEXEC="$DEB/usr/bin/mpiexec.hydra -launcher fork"
LIB=$(readlink -f "$BUILD/libgpublas3.so")
SHIM=$(readlink -f "$CARRY/libpilaenv.so")
PDTIME=$(readlink -f "$CARRY/pdtime")
MULTIQ="$BUILD/bench/gpublas3-multiq"
NCPU=$(nproc)
export GPUBLAS3_CACHE_DIR=/tmp/g3cache

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
    nvidia-smi topo -m 2>/dev/null
    echo "cpus: $NCPU"
    "$MULTIQ" --list
} >"$OUT/setup.log" 2>&1
cat "$OUT/setup.log"
# The GPUs' platform and count, for GPUBLAS3_DEVICE=P:D per rank; on a
# machine without GPUs (SMALL=1 on PoCL) every rank takes device 0:0.
PLAT=$("$MULTIQ" --list | awk '$2 == "gpu" { split($1, a, ":"); print a[1]; exit }')
NGPU=$("$MULTIQ" --list | awk -v p="${PLAT:-x}" '$2 == "gpu" && index($1, p ":") == 1' | wc -l)
if [ -z "$PLAT" ]; then
    # only the CPU check (SMALL=1) may run without GPUs: timing PoCL as if
    # it were the GPUs would waste the lease
    [ "${SMALL:-0}" = 1 ] || { echo "no GPU visible through OpenCL: stopping"; exit 2; }
    PLAT=0; NGPU=1
fi
WRAP=/tmp/g3rank.sh
cat >"$WRAP" <<EOF
#!/bin/sh
# rank r of MPICH (PMI_RANK) takes GPU r modulo $NGPU of platform $PLAT
export GPUBLAS3_DEVICE=$PLAT:\$(( \${PMI_RANK:-0} % $NGPU ))
echo "rank \${PMI_RANK:-0}: GPUBLAS3_DEVICE=\$GPUBLAS3_DEVICE" >&2
exec "\$@"
EOF
chmod +x "$WRAP"

left() { echo $((BUDGET - ($(date +%s) - START))); }
# step NAME LIMIT COMMAND...: runs it if there is time, logs to $OUT/NAME.log
step() {
    local name=$1 lim=$2 l
    shift 2
    l=$(left)
    if [ "$l" -lt 15 ]; then
        echo "SKIP $name: out of time" | tee -a "$OUT/results.txt"
        return
    fi
    [ "$lim" -gt "$l" ] && lim=$l
    echo "== $name (at $(($(date +%s) - START)) s, limit $lim s)"
    timeout -k 5 "$lim" "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    grep "^RESULT" "$OUT/$name.log" | sed "s/^RESULT/$name/" | tee -a "$OUT/results.txt"
    [ $rc -eq 0 ] || echo "FAIL $name: exit status $rc (124: out of time), see $name.log" | tee -a "$OUT/results.txt"
}
# ScaLAPACK runs (a script, so that timeout can run it): g3ranks.sh gpu|cpu
# RANKS, then pdtime's arguments; PBLAS_NB from the environment.
RANKS=/tmp/g3ranks.sh
cat >"$RANKS" <<EOF
#!/bin/sh
kind=\$1 r=\$2
shift 2
pre="$SHIM" wrap=
[ "\$kind" = gpu ] && pre="$LIB $SHIM" wrap="$WRAP"
exec $MPIEXEC -n "\$r" -genv LD_PRELOAD "\$pre" -genv GPUBLAS3_VERBOSE 1 -genv OPENBLAS_NUM_THREADS \$(($NCPU / \$r)) \\
    -genv PBLAS_NB "\$PBLAS_NB" \$wrap "$PDTIME" "\$@"
EOF
chmod +x "$RANKS"
export PBLAS_NB

# ---- (a) one call over two GPUs ----
# (the plans of every share's pieces in the logs: GPUBLAS3_VERBOSE)
step call_d 150 env GPUBLAS3_VERBOSE=1 "$MULTIQ" d "$N_CALL" "$REPS"
step call_s 120 env GPUBLAS3_VERBOSE=1 "$MULTIQ" s "$N_CALL" "$REPS"

# ---- (b) ScaLAPACK: first the comparisons at NB = 256, then the sweeps ----
if [ "$STEPS" != call ]; then
PBLAS_NB=256
step pdgemm_2gpu_nb256 60 "$RANKS" gpu 2 gemm "$N_PD" 256 1 2
step pdgemm_1gpu_nb256 80 "$RANKS" gpu 1 gemm "$N_PD" 256 1 1
step pdgemm_2cpu_nb256 90 "$RANKS" cpu 2 gemm "$N_CPU" 256 1 2
step lu_2gpu_nb256 80 "$RANKS" gpu 2 lu "$N_LU" 256 1 2
step lu_1gpu_nb256 100 "$RANKS" gpu 1 lu "$N_LU" 256 1 1
step lu_2cpu_nb256 90 "$RANKS" cpu 2 lu "$N_CPU" 256 1 2
# ---- (c) the PBLAS Level-3 testers on 4 ranks, two per GPU (the default
# device choice by local rank: no GPUBLAS3_DEVICE), every call on the device
for p in d s z c; do
    step "pblas3_$p" 90 env PBLAS_TESTER="$(ls "$DEB"/usr/lib/*/scalapack/mpich-tests/PBLAS/${p}pb3tst)" \
        PBLAS_DAT_DIR="$(ls -d "$DEB"/usr/share/scalapack/PBLAS)" MPIEXEC="$MPIEXEC" \
        env -u GPUBLAS3_DEVICE sh tests/scalapack/run_pblas.sh "$LIB" $p "/tmp/pblas_$p"
    grep -E "PASS|FAIL|ran [0-9]+" "$OUT/pblas3_$p.log" | sed "s/^/pblas3_$p: /" | tee -a "$OUT/results.txt"
    grep -ho "local rank [0-9]* ([A-Z_]*): device [0-9:]*" /tmp/pblas_$p/err.txt 2>/dev/null | sort | uniq -c |
        sed "s/^/pblas3_$p: /" | tee -a "$OUT/results.txt"
done

PBLAS_NB=32
step pdgemm_2gpu_nb256_pilaenv32 90 "$RANKS" gpu 2 gemm "$N_PD" 256 1 2
for r in 2 1; do # two GPUs, then one
    for nb in $NBS; do
        [ "$nb" = 256 ] && continue
        PBLAS_NB=$nb
        step "pdgemm_${r}gpu_nb$nb" 80 "$RANKS" gpu $r gemm "$N_PD" "$nb" 1 $r
        step "lu_${r}gpu_nb$nb" 100 "$RANKS" gpu $r lu "$N_LU" "$nb" 1 $r
    done
done
fi # STEPS

# ---- the table ----
echo
echo "total $(($(date +%s) - START)) s; logs in $OUT"
awk '
/^call_.*mode=xcopy/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
           printf "%-28s %-6s %6.0f MB  %-7s %8.4f s %8.1f GB/s (dev 1 -> dev 0, on queue 0)\n",
                  $1, "copy", v["bytes"] / 1e6, v["mode"], v["median_s"], v["gbps"]; next }
/^call_/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
           printf "%-28s %-6s n=%-6s %-7s %8.3f s %8.2f TFLOP/s  x%.2f of 1 queue  %s\n",
                  $1, "gemm", v["n"], v["mode"], v["median_s"], v["tflops"], v["vs_1q"], v["check"]; next }
/^(pdgemm|lu)_/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
           printf "%-28s %-6s n=%-6s nb=%-5s %8.3f s %8.1f GFLOP/s  grid %s  %s\n",
                  $1, v["op"], v["n"], v["nb"], v["time_s"], v["gflops"], v["grid"], v["check"]; next }
{ print }' "$OUT/results.txt" | tee "$OUT/table.txt"
