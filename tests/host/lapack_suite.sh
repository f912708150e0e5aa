#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# LAPACK's own test suite (Debian liblapack-test: xlintstd, xlintsts) over
# the drop-ins: the tester runs twice on reference LAPACK (the folder of
# the tester, which holds Debian's reference liblapack.so.3), once on the
# system BLAS alone and once with gpublas3 preloaded, default settings
# (the crossover on) unless the caller's environment says otherwise.  Every
# test group that passes alone must pass preloaded.  The time of each (best
# of two) is printed with their ratio; only when RATIO is given does a
# preloaded run slower than RATIO times the other fail (the drop-ins' target is
# 3, a figure for a quiet host: ctest, which runs on shared machines, does
# not give one -- timings are the benchmarks' business).
#   usage: lapack_suite.sh LIBGPUBLAS3 TESTER INPUT [RATIO]
# The caller's LD_LIBRARY_PATH is kept after the tester's folder (on the GPU
# machine: the folders of the unpacked .debs, OpenBLAS and libgfortran).
set -eu
lib=$1 tester=$2 input=$3 ratio=${4:-}
dir=$(dirname "$tester")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# Alone, then preloaded; with RATIO twice, the best of two of each, so that
# a load that comes and goes on a shared machine falls on both (without it
# the times are only printed, and one round checks the same).
now() { date +%s.%N; }
alone=1e9 pre=1e9 rounds=1
[ -n "$ratio" ] && rounds=2
for round in $(seq "$rounds"); do
  t0=$(now)
  LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}" "$tester" < "$input" > alone.out 2>&1
  t1=$(now)
  LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}" LD_PRELOAD="$lib" "$tester" < "$input" > preloaded.out 2>&1
  t2=$(now)
  alone=$(awk "BEGIN{t = $t1 - $t0; print t < $alone ? t : $alone}")
  pre=$(awk "BEGIN{t = $t2 - $t1; print t < $pre ? t : $pre}")
done
printf 'system BLAS alone: %.2f s; gpublas3 preloaded: %.2f s (%.2fx; best of %d each)\n' "$alone" "$pre" \
  "$(awk "BEGIN{print $pre / $alone}")" "$rounds"
status=0
grep -q "End of tests" preloaded.out || { echo "FAIL: the preloaded run did not finish"; tail -20 preloaded.out; status=1; }
# Each group that passed alone, in the tester's own words.
grep "passed the threshold" alone.out | while IFS= read -r line; do
  grep -qF "$line" preloaded.out || { echo "FAIL: preloaded, lost: $line"; exit 1; }
done || status=1
echo "groups passing alone: $(grep -c 'passed the threshold' alone.out); preloaded: $(grep -c 'passed the threshold' preloaded.out)"
grep "failed to pass\|threshold" alone.out | grep -v "passed the threshold" | sed 's/^/alone: /' | head -20
if [ -n "$ratio" ] && awk "BEGIN{exit !($pre > $ratio * $alone)}"; then
  echo "FAIL: preloaded run took more than ${ratio}x the run on the system BLAS alone"
  status=1
fi
exit $status
