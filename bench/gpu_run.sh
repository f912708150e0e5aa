#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# One batch of work on a lent NVIDIA machine (see /work/shared/DEVICE.md),
# run from the repository root of the copy the device tool makes there:
#
#   bash bench/gpu_run.sh PHASE...
#
# It expects a build made on this side in .device-carry/build (configured
# with -S /work/main -B /work/main/.device-carry/build
# -DPython3_EXECUTABLE=/usr/bin/python3, so the paths inside ctest's files
# hold there once /work/main points at the copy) and Debian
# .debs in .device-carry/debs (libclblast1, libopenblas0-pthread,
# libcmocka0, libblas-test, liblapack-test, liblapack3, libblas3,
# libgfortran5, ocl-icd-libopencl1: Debian's ICD loader, which the tests'
# OpenCL shim and OCL_ICD_VENDORS rely on).  Phases:
#   tests   the test suite less Oclgrind, the sanitizer rebuilds, the
#           downstream package and drop-in link tests (no gfortran there,
#           no OpenBLAS to link) and the MPICH ones (no MPICH there;
#           bench/multigpu carries it)
#   bench   the README's main job with CLBlast
#   shapes  the shape suite (--suite shapes) with CLBlast in one run, then
#           cuBLAS's peer (bench/cublas_peer.cu, built here with nvcc):
#           shapes.csv, cublas-shapes.csv, and their table and plot
#   routines every routine at n = 1024 and 4096, S and D, with CLBlast,
#           then cuBLAS's peer: routines.csv, cublas-routines.csv, table
#   compare  the shape suite and every routine at 1024 and 4096 (in
#           $PRECISIONS, default s,d,c,z), or the bench arguments in
#           $COMPARE_ARGS, run by each build in $BEFORE (folders that
#           bench/build_at.sh makes, each an older gpublas3-bench and its
#           libgpublas3.so), then by this one, gpublas3 alone, $ROUNDS
#           rounds; bench/compare.py prints each older build's ratios
#   batched  strided batched GEMM at 16^3 x 20000 ... 512^3 x 64 (S, D; C, Z
#           at 32^3 and 128^3) with CLBlast, then cuBLAS's peer; 1000
#           16^3 products against a loop of single calls
#   ARGS... anything else is run as a command after the set-up
# Results go to $RESULTS (default $OUT), logs to $OUT, and all of them into
# $OUT/all.tgz; a short summary is printed last.  The published H100
# tables (bench/results/h100/) are
#   RESULTS=$OUT bash bench/gpu_run.sh shapes routines
set -u
OUT=${OUT:-/tmp/out}
RESULTS=${RESULTS:-$OUT}
mkdir -p "$OUT" "$RESULTS"
root=$(pwd)

# the copy's root is where the build expects /work/main
if [ ! -e /work/main ]; then mkdir -p /work && ln -s "$root" /work/main; fi
B=/work/main/.device-carry/build

# NVIDIA's OpenCL driver is installed but not registered
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
mkdir -p /tmp/debs
for f in .device-carry/debs/*.deb; do dpkg -x "$f" /tmp/debs; done
L=/tmp/debs/usr/lib/x86_64-linux-gnu
# ctest's own scripts run /usr/bin/cmake; the image has cmake elsewhere
[ -e /usr/bin/cmake ] || ln -s "$(command -v cmake)" /usr/bin/cmake
# the netlib testers where the build found them (/usr/lib/.../blas, lapack)
for t in blas lapack; do
    [ -e /usr/lib/x86_64-linux-gnu/$t ] || ln -s "$L/$t" /usr/lib/x86_64-linux-gnu/$t
done
export LD_LIBRARY_PATH="$B:$L:$L/openblas-pthread:$L/blas:$L/lapack:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/tmp/debs/usr/lib/x86_64-linux-gnu/blas:/tmp/debs/usr/lib/x86_64-linux-gnu/lapack:$PATH"
export GPUBLAS3_DEVICE=gpu
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; } | tee "$OUT/machine.txt"

# cuBLAS's peer, built once on the first phase that needs it
cublas_peer() {
    [ -x /tmp/cublas_peer ] || nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas \
        >"$OUT/nvcc.log" 2>&1
    /tmp/cublas_peer "$@"
}
# the Markdown table, and the plot where matplotlib is there
plot() {
    name=$1; shift
    python3 bench/plot.py --table "$@" >"$RESULTS/$name.md" 2>>"$OUT/plot.log"
    python3 bench/plot.py "$@" -o "$RESULTS/$name.png" >>"$OUT/plot.log" 2>&1 || true
}

# a lent machine may return only a few files of $OUT, by name: all of
# them, $RESULTS too, in one archive whose name sorts first, made again
# after every phase so that a call cut off by its time limit still brings
# back what the phases before had written
archive() {
    out_abs=$(cd "$OUT" && pwd) res_abs=$(cd "$RESULTS" && pwd)
    extra=()
    [ "$res_abs" != "$out_abs" ] && extra=(-C "$(dirname "$res_abs")" "$(basename "$res_abs")")
    tar czf /tmp/all.tgz --exclude=./all.tgz -C "$out_abs" . "${extra[@]}" 2>/dev/null && mv /tmp/all.tgz "$out_abs/all.tgz"
}

summary=""
for phase in "$@"; do
    case $phase in
    tests)
        start=$(date +%s)
        (cd "$B" && ctest -LE "oclgrind|sanitizers|scalapack|mpich" -E "^(downstream|dropin)_" --output-on-failure --timeout 300) >"$OUT/ctest.log" 2>&1
        summary+="tests: $(grep -E 'tests passed|tests failed' "$OUT/ctest.log") in $(( $(date +%s) - start )) s"$'\n'
        summary+="$(grep -E '^\s+[0-9]+ - ' "$OUT/ctest.log")"$'\n'
        ;;
    bench)
        "$B/bench/gpublas3-bench" --csv "$OUT/bench.csv" --json "$OUT/bench.json" >"$OUT/bench.log" 2>&1
        summary+="bench: exit $? ($(tail -n 3 "$OUT/bench.log" | tr '\n' ' '))"$'\n'
        ;;
    shapes)
        "$B/bench/gpublas3-bench" --suite shapes --reps 5 --peers gpublas3,clblast \
            --csv "$RESULTS/shapes.csv" --json "$RESULTS/shapes.json" >"$OUT/shapes.log" 2>&1
        summary+="shapes: exit $? ($(grep -E 'checked|target met' "$OUT/shapes.log" | tr '\n' ' '))"$'\n'
        cublas_peer --suite shapes --reps 5 --csv "$RESULTS/cublas-shapes.csv" >"$OUT/cublas-shapes.log" 2>&1
        summary+="shapes, cuBLAS: exit $?"$'\n'
        plot shapes "$RESULTS/shapes.csv" "$RESULTS/cublas-shapes.csv"
        ;;
    routines)
        "$B/bench/gpublas3-bench" --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 \
            --precisions s,d --peers gpublas3,clblast --reps 5 --sample 256 \
            --csv "$RESULTS/routines.csv" --json "$RESULTS/routines.json" >"$OUT/routines.log" 2>&1
        summary+="routines: exit $? ($(tail -n 3 "$OUT/routines.log" | tr '\n' ' '))"$'\n'
        cublas_peer --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --precisions s,d --reps 5 \
            --csv "$RESULTS/cublas-routines.csv" >"$OUT/cublas-routines.log" 2>&1
        summary+="routines, cuBLAS: exit $?"$'\n'
        plot routines "$RESULTS/routines.csv" "$RESULTS/cublas-routines.csv"
        ;;
    compare)
        # the builds in $BEFORE (folders of bench/build_at.sh), then this
        # one, gpublas3 alone, $ROUNDS rounds (default 1) in alternating
        # order; each older build against this one by bench/compare.py
        names=() dirs=()
        for d in ${BEFORE:?folders of older builds}; do names+=("$(basename "$d")"); dirs+=("$d"); done
        names+=(after); dirs+=("$B")
        for r in $(seq "${ROUNDS:-1}"); do
            order=$(seq 0 $(( ${#dirs[@]} - 1 )))
            [ $(( r % 2 )) = 0 ] && order=$(echo "$order" | tac)
            for i in $order; do
                d=${dirs[$i]}
                bin=$d/gpublas3-bench
                [ -x "$bin" ] || bin=$d/bench/gpublas3-bench
                at="$RESULTS/compare-${names[$i]}-r$r"
                if [ -n "${COMPARE_ARGS:-}" ]; then
                    LD_LIBRARY_PATH=$d:$LD_LIBRARY_PATH $bin $COMPARE_ARGS --peers gpublas3 --csv "$at.csv" >>"$OUT/compare.log" 2>&1
                    continue
                fi
                LD_LIBRARY_PATH=$d:$LD_LIBRARY_PATH $bin --suite shapes --reps 5 --sample 256 --peers gpublas3 \
                    --csv "$at-shapes.csv" >>"$OUT/compare.log" 2>&1
                LD_LIBRARY_PATH=$d:$LD_LIBRARY_PATH $bin --routines gemm,symm,syrk,syr2k,trmm,trsm,hemm,herk,her2k \
                    --sizes 1024,4096 --precisions "${PRECISIONS:-s,d,c,z}" --peers gpublas3 --reps 5 --sample 256 \
                    --csv "$at-routines.csv" >>"$OUT/compare.log" 2>&1
            done
        done
        for name in "${names[@]:0:${#names[@]}-1}"; do
            summary+="compare, $name -> after: $(python3 bench/compare.py --before "$RESULTS/compare-$name"-r*.csv \
                --after "$RESULTS"/compare-after-r*.csv)"$'\n'
        done
        ;;
    batched)
        # the products of real programs' batches: 16^3 x 20000 ... 512^3 x 64
        # (C and Z at 32^3 and 128^3), then 1000 16^3 products against a loop
        for sb in 16:20000 32:10000 64:4096 128:1024 256:256 512:64; do
            n=${sb%:*} bt=${sb#*:} pr=s,d
            case $n in 32|128) pr=s,d,c,z;; esac
            "$B/bench/gpublas3-bench" --routines gemm --batch $bt --sizes $n --precisions $pr \
                --peers gpublas3,clblast --reps 7 --csv "$OUT/batched-$n.csv" >>"$OUT/batched.log" 2>&1
            cublas_peer --routines gemm --batch $bt --sizes $n --precisions $pr --reps 7 \
                --csv "$OUT/cublas-batched-$n.csv" >>"$OUT/cublas-batched.log" 2>&1
        done
        "$B/bench/gpublas3-bench" --routines gemm --batch 1000 --sizes 16 --precisions s,d,c,z \
            --peers gpublas3,gpublas3-loop --reps 7 --csv "$OUT/batched-loop.csv" >>"$OUT/batched.log" 2>&1
        for f in batched cublas-batched; do
            { head -n 1 "$OUT/$f-16.csv"; for g in "$OUT/$f"-*.csv; do tail -n +2 "$g"; done; } >"$RESULTS/$f.csv"
        done
        summary+="batched: $(grep -c ', 0 FAILED, 0 could not' "$OUT/batched.log") runs all checked"$'\n'
        plot batched "$RESULTS/batched.csv" "$RESULTS/cublas-batched.csv"
        ;;
    *)
        echo "== $phase" >>"$OUT/commands.log"
        bash -c "$phase" >>"$OUT/commands.log" 2>&1
        summary+="command exit $?: $phase"$'\n'
        ;;
    esac
    archive
done
echo "---- summary"
printf '%s' "$summary"
