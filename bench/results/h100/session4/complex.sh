#!/bin/bash
# Session 4: issue 14's complex figures on the H100, in one run.  GEMM in
# S, D, C, Z at n = BIG (gpublas3 and CLBlast in one gpublas3-bench run),
# then Z (and C while the time allows) GEMM, HEMM, HERK, HER2K, TRMM and
# TRSM at n = MID (TRSM left lower N non-unit: --uplo L, as cublas_peer's
# TRSM), then cuBLAS (bench/cublas_peer.cu) on the same cases, and last a
# table of the ratios issue 14 targets.  Every result is checked before it
# is timed (bench/README.md).  Run from the repository root through
# bench/gpu_run.sh, which sets LD_LIBRARY_PATH, registers the NVIDIA ICD and
# exposes the build at /work/main/.device-carry/build:
#
#   bash bench/gpu_run.sh "bash bench/results/h100/session4/complex.sh"; cat $OUT/complex/table.txt
#
# (gpu_run.sh logs a command's output in $OUT/commands.log.)  The whole run
# keeps within BUDGET seconds of wall clock: each step runs under `timeout`
# with what is left, less what the later steps need (their reserve), and
# the table says which steps were cut.  The check of a case (OpenBLAS on
# the host: reference, error scale, and the bound once per device peer)
# costs far more than the GPU's calls at these sizes: 8mnk flops at
# n = 8192 is 4.4 TFLOP per ZGEMM, and Debian's OpenBLAS there is slow:
# with whole checks, session 4's first two calls got S and D GEMM 8192 in
# 90 s and CGEMM 8192 alone in 130 s (run1/, run2/ beside this script).
# So the checks cover the leading SAMPLE columns of each output (--sample:
# the same routine on the same buffers; bench/README.md), and D and Z run
# first at BIG (the ratios most asked for), then S and C.
#
# Everything is overridable, so the parsing can be checked on PoCL:
#   BUILD=build DEVICE=cpu BIG=96 MID=64 PEERS=gpublas3,clblast CUBLAS=none OUT=/tmp/c \
#       bash bench/results/h100/session4/complex.sh
# TABLE_ONLY=1 prints the table again from the CSVs already in $OUT/complex.
set -u
OUT=${OUT:-/tmp/out}
D=$OUT/complex
mkdir -p "$D"
BUILD=${BUILD:-/work/main/.device-carry/build}
BENCH=$BUILD/bench/gpublas3-bench
DEVICE=${DEVICE:-gpu}
BIG=${BIG:-8192}
MID=${MID:-4096}
REPS=${REPS:-3}
SAMPLE=${SAMPLE:-256}
PEERS=${PEERS:-gpublas3,clblast}
BUDGET=${BUDGET:-150}
ROUTINES=gemm,hemm,herk,her2k,trmm   # and trsm, run apart with --uplo L
start=$(date +%s)
left() { echo $(( BUDGET - ($(date +%s) - start) )); }

# step NAME CAP RESERVE CMD...: CMD under timeout min(CAP, left - RESERVE),
# output in $D/NAME.txt; one line per step in $D/steps.txt.
step() {
    local name=$1 cap=$2 reserve=$3
    shift 3
    local t=$(( $(left) - reserve ))
    [ "$t" -gt "$cap" ] && t=$cap
    if [ "$t" -lt 5 ]; then
        echo "$name: skipped, ${t} s left for it" | tee -a "$D/steps.txt"
        return
    fi
    local s=$(date +%s)
    timeout "$t" "$@" > "$D/$name.txt" 2>&1
    local rc=$?
    echo "$name: exit $rc$([ $rc = 124 ] && echo ' (timed out: rows after the last one are missing)') in $(( $(date +%s) - s )) of $t s" \
        | tee -a "$D/steps.txt"
}

if [ -z "${TABLE_ONLY:-}" ]; then
    rm -f "$D"/*.csv "$D/steps.txt"
    # The cuBLAS peer: the build's (-DGPUBLAS3_BENCH_CUBLAS=ON), else built
    # here by nvcc in the background while the OpenCL runs go on (under its
    # own name: an older /tmp/cublas_peer has no CTRSM/ZTRSM).
    CUBLAS=${CUBLAS:-$BUILD/bench/gpublas3-cublas-peer}
    nvpid=
    if [ "$CUBLAS" != none ] && [ ! -x "$CUBLAS" ]; then
        CUBLAS=/tmp/cublas_peer_complex
        [ "$CUBLAS" -nt bench/cublas_peer.cu ] ||
            { nvcc -O2 -Ibench -o $CUBLAS bench/cublas_peer.cu bench/shapes.c -lcublas > "$D/nvcc.txt" 2>&1 & nvpid=$!; }
    fi
    common=(--device "$DEVICE" --reps "$REPS" --peers "$PEERS" --sample "$SAMPLE")
    step big 60 60 "$BENCH" "${common[@]}" --routines gemm --precisions d,z,s,c --sizes "$BIG" --csv "$D/big.csv"
    step z-mid 30 30 "$BENCH" "${common[@]}" --routines $ROUTINES --precisions z --sizes "$MID" --csv "$D/z-mid.csv"
    step z-trsm 15 25 "$BENCH" "${common[@]}" --routines trsm --uplo L --precisions z --sizes "$MID" --csv "$D/z-trsm.csv"
    cplx=z
    if [ "$(left)" -gt 55 ]; then   # C as well, if it leaves cuBLAS its time
        cplx=z,c
        step c-mid 25 25 "$BENCH" "${common[@]}" --routines $ROUTINES --precisions c --sizes "$MID" --csv "$D/c-mid.csv"
        step c-trsm 12 25 "$BENCH" "${common[@]}" --routines trsm --uplo L --precisions c --sizes "$MID" --csv "$D/c-trsm.csv"
    fi
    if [ "$CUBLAS" != none ]; then
        [ -n "$nvpid" ] && { wait $nvpid || echo "nvcc failed: $(tail -n 3 "$D/nvcc.txt")" | tee -a "$D/steps.txt"; }
        step cublas-big 20 10 "$CUBLAS" --routines gemm --precisions d,z,s,c --sizes "$BIG" --reps "$REPS" --csv "$D/cublas-big.csv"
        step cublas-mid 20 0 "$CUBLAS" --routines $ROUTINES,trsm --precisions $cplx --sizes "$MID" --reps "$REPS" --csv "$D/cublas-mid.csv"
    fi
fi

# The table: rates from every CSV here, ratios against issue 14's targets.
python3 - "$BIG" "$MID" "$D" "${SAMPLE:-256}" > "$D/table.txt" <<'EOF'
import csv, glob, sys
big, mid, d, sample = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rate, device, fails = {}, "", []
for path in sorted(glob.glob(d + "/*.csv")):
    for r in csv.DictReader(open(path)):
        if r["peer"] != "cublas":
            device = r["device"] + ", " + r["date"]
        if r["status"] != "ok":
            fails.append("%s %s%s n=%s: %s" % (r["peer"], r["precision"], r["routine"], r["n"], r["status"]))
            continue
        rate[(r["peer"], r["precision"] + r["routine"], int(r["n"]))] = float(r["gflops"])

def ratio(a, b):
    return a / b if a and b else None

def line(name, value, target):
    v = "-" if value is None else "%.2f" % value
    met = "-" if value is None else "yes" if value >= target else "NO"
    print("%-34s %7s %8s %5s" % (name, v, ">= %.2f" % target, met))

g = lambda peer, case, n: rate.get((peer, case, n))
print("issue 14 targets on %s (GFLOP/s count complex GEMM as 8mnk)" % (device or "?"))
print("gpublas3 and CLBlast checked on the leading %s columns of each output, cuBLAS on 256 sampled elements" % sample)
print("%-34s %7s %8s %5s" % ("ratio", "value", "target", "met"))
line("ZGEMM / our DGEMM, n=%d" % big, ratio(g("gpublas3", "zgemm", big), g("gpublas3", "dgemm", big)), 0.9)
line("CGEMM / our SGEMM, n=%d" % big, ratio(g("gpublas3", "cgemm", big), g("gpublas3", "sgemm", big)), 0.9)
line("ZGEMM / cuBLAS ZGEMM, n=%d" % big, ratio(g("gpublas3", "zgemm", big), g("cublas", "zgemm", big)), 0.85)
line("CGEMM / cuBLAS CGEMM, n=%d" % big, ratio(g("gpublas3", "cgemm", big), g("cublas", "cgemm", big)), 0.75)
line("ZGEMM / CLBlast ZGEMM, n=%d" % big, ratio(g("gpublas3", "zgemm", big), g("clblast", "zgemm", big)), 3.0)
for p in "zc":
    for r in ["hemm", "herk", "her2k", "trmm", "trsm"]:
        if p == "z" or g("gpublas3", p + "gemm", mid):
            line("%s%s / our %sGEMM, n=%d" % (p.upper(), r.upper(), p.upper(), mid),
                 ratio(g("gpublas3", p + r, mid), g("gpublas3", p + "gemm", mid)), 0.8)
print()
print("%-14s %10s %10s %10s %9s %9s" % ("GFLOP/s", "gpublas3", "clblast", "cublas", "/clblast", "/cublas"))
cases = sorted({(k[1], k[2]) for k in rate}, key=lambda c: (-c[1], "dzsc".find(c[0][0]), c[0][1:]))
for case, n in cases:
    o, c, u = (g(p, case, n) for p in ("gpublas3", "clblast", "cublas"))
    f = lambda x: "-" if x is None else "%.0f" % x
    q = lambda x: "-" if x is None else "%.2f" % x
    print("%-14s %10s %10s %10s %9s %9s" % ("%s %d" % (case, n), f(o), f(c), f(u), q(ratio(o, c)), q(ratio(o, u))))
for f in fails:
    print("not timed:", f)
EOF
[ -f "$D/steps.txt" ] && cat "$D/steps.txt" >> "$D/table.txt"
cat "$D/table.txt"
