#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# One PBLAS Level-3 tester of Debian's scalapack-mpi-test (MPICH build) on
# 4 or 2 MPICH ranks with libgpublas3.so preloaded into every rank, and with
# GPUBLAS3_CROSSOVER=0 so that every BLAS call goes to the device.  Passes
# when every test of the tester's summary passed, when in every rank each
# BLAS symbol the tester takes that gpublas3 defines bound to libgpublas3.so
# (LD_DEBUG=bindings; ?gemm_ and ?trsm_ must be among them),
# and when gpublas3 ran the tester's ?GEMM calls (GPUBLAS3_VERBOSE=1).
#
#   sh run_pblas.sh LIBGPUBLAS3 PRECISION(s|d|c|z) WORKDIR [RANKS]
#
# The input is Debian's P?BLAS3TST.dat with two process grids instead of
# four (two of which leave ranks idle), the same routines, options and
# problems: 2 x 2 and 1 x 4 with 4 ranks (the default), 2 x 1 and 1 x 2
# with 2.  On 2 cores 4 ranks spend most of their time in MPICH's polling
# (S: 18-22 s and 33-41 CPU-seconds against 2 s and 2.4 with 2 ranks).
# MPICH's hydra runs as root without flags; mpiexec.mpich is named because
# Debian's plain mpiexec may be Open MPI's.  Exit 77 (skipped): no MPICH or
# no tester installed.
set -u
LIB=${1:?libgpublas3.so}
P=${2:?precision s, d, c or z}
WORK=${3:?work folder}
RANKS=${4:-4}
case $RANKS in
4) GRID_P="2 1" GRID_Q="2 4" ;;
2) GRID_P="2 1" GRID_Q="1 2" ;;
*) echo "RANKS must be 4 or 2"; exit 1 ;;
esac
PU=$(echo "$P" | tr sdcz SDCZ)
# PBLAS_TESTER, PBLAS_DAT_DIR and MPIEXEC (a command line) point elsewhere
# where the packages are unpacked rather than installed (the GPU machine:
# bench/multigpu/run_h200x2.sh).
TESTER=${PBLAS_TESTER:-$(ls /usr/lib/*/scalapack/mpich-tests/PBLAS/${P}pb3tst 2>/dev/null | head -n 1)}
DAT=${PBLAS_DAT_DIR:-/usr/share/scalapack/PBLAS}/P${PU}BLAS3TST.dat
MPIEXEC=${MPIEXEC:-$(command -v mpiexec.mpich || command -v mpiexec.hydra)}
if [ -z "$TESTER" ] || [ ! -f "$DAT" ] || [ -z "$MPIEXEC" ]; then
    echo "skipped: needs Debian's mpich, scalapack-mpi-test and scalapack-test-common"
    exit 77
fi
rm -rf "$WORK" && mkdir -p "$WORK/bind" && cd "$WORK" || exit 1
sed -e 's/^[0-9]*[[:space:]]*number of process grids.*/2\t\tnumber of process grids/' \
    -e "s/^[0-9 \t]*values of P.*/$GRID_P\t\tvalues of P/" -e "s/^[0-9 \t]*values of Q.*/$GRID_Q\t\tvalues of Q/" \
    "$DAT" >"P${PU}BLAS3TST.dat"
grep -q "^$GRID_Q.*values of Q" "P${PU}BLAS3TST.dat" || { echo "could not set the grids in $DAT"; exit 1; }

# POCL_MAX_PTHREAD_COUNT=1: one PoCL worker per rank.
$MPIEXEC -n "$RANKS" -env LD_PRELOAD "$LIB" -env GPUBLAS3_CROSSOVER 0 -env GPUBLAS3_VERBOSE 1 \
    -env POCL_MAX_PTHREAD_COUNT 1 -env LD_DEBUG bindings -env LD_DEBUG_OUTPUT "$WORK/bind/rank" \
    "$TESTER" >out.txt 2>err.txt
status=$?
fail=0
sed -n '/Testing Summary/,$p' out.txt
if [ $status -ne 0 ]; then echo "FAIL: mpiexec exited with $status"; fail=1; fi
grep -q "End of Tests" out.txt || { echo "FAIL: the tester did not finish"; fail=1; }
# summary rows: | NAME TOTAL PASSED FAILED SKIPPED
awk '/^ *\| *P/ { rows++; if ($5 != 0 || $4 + $6 != $3) bad++ }
     END { if (!rows || bad) { print "FAIL: " (rows ? bad " summary row(s) with failures" : "no summary"); exit 1 } }' \
    out.txt || fail=1

# Bindings: the BLAS names gpublas3 defines, as each rank's program bound them.
names=$(nm -D --defined-only "$LIB" | awk '$3 ~ /^[sdcz][a-z0-9]+_$/ { print $3 }')
ranks=0
for f in bind/rank.*; do
    [ -f "$f" ] || continue
    # only the tester's processes (hydra's own leave files too)
    grep -q "${P}pb3tst" "$f" || continue
    ranks=$((ranks + 1))
    # "binding file CALLER [0] to DEFINER [0]: normal symbol `name'", callers other than gpublas3
    binds=$(sed -n "s/.*binding file \([^ ]*\) .* to \([^ ]*\) .*normal symbol \`\([a-z0-9_]*\)'.*/\1 \2 \3/p" "$f" |
            grep -v "^[^ ]*libgpublas3")
    bound=""
    for s in $names; do
        to=$(echo "$binds" | awk -v s="$s" '$3 == s { print $2 }' | sort -u)
        for t in $to; do
            case "$t" in
            *libgpublas3*) bound="$bound $s" ;;
            *) echo "FAIL: $s bound to $t in $(basename "$f")"; fail=1 ;;
            esac
        done
    done
    echo "$(basename "$f"): bound to gpublas3:$bound"
    for s in ${P}gemm_ ${P}trsm_; do
        case "$bound " in *" $s "*) ;; *) echo "FAIL: $s not bound to gpublas3 in $(basename "$f")"; fail=1 ;; esac
    done
done
[ $ranks -eq "$RANKS" ] || { echo "FAIL: binding logs of $ranks ranks, not $RANKS"; fail=1; }
calls=$(grep -c "gpublas3: .*${PU}GEMM" err.txt)
echo "gpublas3 ran $calls ${PU}GEMM calls"
[ "$calls" -gt 0 ] || { echo "FAIL: gpublas3 ran no ${PU}GEMM"; fail=1; }
# the binding logs are large: kept only when something failed
[ $fail -eq 0 ] && rm -rf bind && echo "PASS"
exit $fail
