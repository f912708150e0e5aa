#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# LAPACK end to end: reference LAPACK's xPOTRF, xGETRF and xGEQRF timed by
# bench/lapack_e2e (every result checked by a residual) in four
# configurations, side by side in one run, case by case:
#
#   reference  reference LAPACK over the host BLAS alone (Debian's
#              libblas.so.3: OpenBLAS)
#   gpublas3   the same with libgpublas3.so preloaded, default settings
#              (small calls stay on the host BLAS, big ones go to the device);
#              for n <= VERBOSE_N (default 4096) it runs once more with
#              GPUBLAS3_VERBOSE=1 (gpublas3.log.gz, verbose.csv: where each
#              call went and what device calls took), untimed
#   openblas   OpenBLAS's own LAPACK (libopenblas.so.0)
#   nvblas     reference LAPACK with NVBLAS preloaded, its documented
#              configuration: NVBLAS_CONFIG_FILE naming OpenBLAS as the CPU
#              BLAS, all GPUs, tile 2048, autopin off (with autopin on,
#              NVBLAS returned a wrong DGETRF on 2026-11-22)
#
# Usage: sh bench/lapack_e2e.sh BUILD OUT [ROUTINES [SIZES [REPS]]]
#   BUILD  a build folder (libgpublas3.so, bench/lapack_e2e)
#   OUT    folder for lapack_e2e.csv, meta.txt and the logs
#   ROUTINES default dpotrf,dgetrf,dgeqrf,spotrf,sgetrf,sgeqrf
#   SIZES    default 2048,4096,8192,16384; REPS (best of) default 2
# Environment: DEBROOT, where Debian's liblapack3, libopenblas0-pthread,
# libgfortran5 (and ocl-icd-libopencl1) .debs are unpacked (`dpkg -x X.deb
# $DEBROOT`; default / for this machine's own); NVBLAS, the path of
# libnvblas.so (default /usr/local/cuda/lib64/libnvblas.so; skipped when
# absent); CONFIGS, the configurations to run (default all four).
#
# On the H100 machine (see /work/shared/DEVICE.md: register the ICD first),
# one 10-minute command holds about: everything at n <= 8192 with REPS=2,
# or one precision at n = 16384 with REPS=1.  E.g.
#   DEBROOT=/tmp/deb sh bench/lapack_e2e.sh build $OUT/a "" 2048,4096,8192 2
#   DEBROOT=/tmp/deb sh bench/lapack_e2e.sh build $OUT/b dpotrf,dgetrf,dgeqrf 16384 1
set -u
BUILD=${1:?build folder}
OUT=${2:?output folder}
ROUTINES=${3:-dpotrf,dgetrf,dgeqrf,spotrf,sgetrf,sgeqrf}
[ -n "$ROUTINES" ] || ROUTINES=dpotrf,dgetrf,dgeqrf,spotrf,sgetrf,sgeqrf
SIZES=${4:-2048,4096,8192,16384}
REPS=${5:-2}
DEBROOT=${DEBROOT:-/}
NVBLAS=${NVBLAS:-/usr/local/cuda/lib64/libnvblas.so}
CONFIGS=${CONFIGS:-reference gpublas3 openblas nvblas}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BUILD=$(cd "$BUILD" && pwd)
PROG=$BUILD/bench/lapack_e2e
LIBDIR=$DEBROOT/usr/lib/x86_64-linux-gnu
REFLAPACK=$LIBDIR/lapack/liblapack.so.3
OPENBLAS=$LIBDIR/openblas-pthread/libopenblas.so.0
[ -e "$OPENBLAS" ] || OPENBLAS=$LIBDIR/libopenblas.so.0
export LD_LIBRARY_PATH="$LIBDIR/openblas-pthread:$LIBDIR/lapack:$LIBDIR:$BUILD:${LD_LIBRARY_PATH:-}"

cat > "$OUT/nvblas.conf" <<EOF
NVBLAS_LOGFILE $OUT/nvblas.log
NVBLAS_CPU_BLAS_LIB $OPENBLAS
NVBLAS_GPU_LIST ALL
NVBLAS_TILE_DIM 2048
EOF

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "host: $(uname -n) $(uname -r); $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/gpu: /'
  echo "gpublas3: $BUILD/libgpublas3.so, commit ${GPUBLAS3_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
  echo "reference LAPACK: $REFLAPACK; host BLAS: $(readlink -f "$LIBDIR/openblas-pthread/libblas.so.3" 2>/dev/null || echo "libblas.so.3 on the library path")"
  echo "OpenBLAS: $(readlink -f "$OPENBLAS")"
  echo "NVBLAS: $NVBLAS, config: $(tr '\n' ';' < "$OUT/nvblas.conf")"
  echo "routines: $ROUTINES; sizes: $SIZES; best of $REPS; residual bound 10 (n eps |A| |x| units)"
  echo "environment: $(env | grep -E '^(GPUBLAS3_|OPENBLAS_|OMP_)' | tr '\n' ' ')"
} > "$OUT/meta.txt"
cat "$OUT/meta.txt"

echo "config,routine,n,seconds,gflops,residual,ok" > "$OUT/lapack_e2e.csv"
status=0
for n in $(echo "$SIZES" | tr , ' '); do
  for r in $(echo "$ROUTINES" | tr , ' '); do
    for c in $CONFIGS; do
      case $c in
        reference) set -- env "$PROG" "$REFLAPACK" ;;
        gpublas3) set -- env LD_PRELOAD="$BUILD/libgpublas3.so" "$PROG" "$REFLAPACK" ;;
        openblas) set -- env "$PROG" "$OPENBLAS" ;;
        nvblas) [ -e "$NVBLAS" ] || continue
                set -- env LD_PRELOAD="$NVBLAS" NVBLAS_CONFIG_FILE="$OUT/nvblas.conf" "$PROG" "$REFLAPACK" ;;
      esac
      "$@" "$c" "$r" "$n" "$REPS" >> "$OUT/lapack_e2e.csv" 2>> "$OUT/$c.log" || status=1
      tail -n 1 "$OUT/lapack_e2e.csv"
      # where gpublas3's calls went: one more run, verbose (its lines, a
      # write to stderr per call, would cost the timed runs several per cent
      # at n = 2048), not in the table; up to VERBOSE_N only
      if [ "$c" = gpublas3 ] && [ "$n" -le "${VERBOSE_N:-4096}" ]; then
        GPUBLAS3_VERBOSE=1 "$@" "$c-verbose" "$r" "$n" "$REPS" >> "$OUT/verbose.csv" 2>> "$OUT/gpublas3.log"
      fi
    done
  done
done
# Where gpublas3's calls went: counts of host-BLAS and device calls.
echo "gpublas3 calls on the host BLAS: $(grep -c 'on the host BLAS' "$OUT/gpublas3.log" 2>/dev/null);" \
     "to the device: $(grep -c 'to the device' "$OUT/gpublas3.log" 2>/dev/null)" | tee -a "$OUT/meta.txt"
grep -q 'to the device' "$OUT/gpublas3.log" 2>/dev/null &&
  grep -m1 ' on .*panel(s)' "$OUT/gpublas3.log" | sed 's/^/first device call: /' | tee -a "$OUT/meta.txt"
gzip -f "$OUT/gpublas3.log" 2>/dev/null

# The table: seconds per configuration, case by case.
awk -F, 'NR > 1 { key = $2 "," $3; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
                  t[key "," $1] = $7 == "ok" ? sprintf("%.3f", $4) : $7; cfg[$1] = 1 }
         END { printf "%-8s %6s", "routine", "n"; for (c in cfg) printf " %10s", c; printf "\n"
               for (i = 1; i <= nk; i++) { split(keys[i], k, ","); printf "%-8s %6s", k[1], k[2]
                 for (c in cfg) printf " %10s", (keys[i] "," c) in t ? t[keys[i] "," c] : "-"; printf "\n" } }' \
  "$OUT/lapack_e2e.csv" | tee "$OUT/table.txt"
exit $status
