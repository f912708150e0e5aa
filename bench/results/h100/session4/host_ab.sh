#!/bin/bash
# Session 4, issue 12 item 3: dgemm_ from malloc'd host arrays on the H100,
# the shared operand packed once per call (the new default) against once
# per panel (GPUBLAS3_PACK_ONCE=0, the old way), with the pinned-transfer
# floor measured in the same process next to each (tests/host/host_timing:
# A and B up, then C down, from pinned memory).  n = 8192 (the target:
# <= 1.2x the floor) and 4096, beta = 1 (the host adds beta C) and 0, every
# other setting at its default (copy threads: one per CPU, at most 16;
# panels: GPUBLAS3_PANEL_KB's default).  n = 8192, beta = 1 runs new, old,
# new, old so that both share the machine's drift.  No NVBLAS here
# (tests/host/run_host_timing.sh has it).  Run from the repository root:
#
#   bash bench/gpu_run.sh "bash bench/results/h100/session4/host_ab.sh"; cat $OUT/host_ab/table.txt
#
# (gpu_run.sh logs a command's output in $OUT/commands.log.)
# Each run is one process (about 6 s at n = 8192: filling the arrays,
# the pinned and pageable transfer timings, the host copies alone, the
# device-only DGEMM, four dgemm_ calls, the check); 12 runs, under 150 s.  Logs under
# $OUT/host_ab; the table last, also in $OUT/host_ab/table.txt.
set -u
B=${B:-/work/main/.device-carry/build}
T=$B/tests/host/host_timing
D=${OUT:-/tmp/out}/host_ab
mkdir -p "$D"
if ! grep -q GPUBLAS3_PACK_ONCE "$B/libgpublas3.so"; then
    echo "the carried build predates GPUBLAS3_PACK_ONCE: rebuild it"
    exit 1
fi
export GPUBLAS3_CROSSOVER=0 GPUBLAS3_VERBOSE=1

runs=""
run() {  # label n beta pack_once [VAR=value...]
    label=$1 n=$2 beta=$3 once=$4
    shift 4
    timeout 40 env GPUBLAS3_PACK_ONCE=$once "$@" "$T" "$n" 3 "$beta" - >"$D/$label.txt" 2>"$D/$label.err"
    echo "exit status $?" >>"$D/$label.txt"
    runs+="$label "
}
run n8192_b1_new 8192 1 1
run n8192_b1_old 8192 1 0
run n8192_b1_new2 8192 1 1
run n8192_b1_old2 8192 1 0
run n8192_b0_new 8192 0 1
run n8192_b0_old 8192 0 0
run n4096_b1_new 4096 1 1
run n4096_b1_old 4096 1 0
run n4096_b0_new 4096 0 1
run n4096_b0_old 4096 0 0
# larger chunks of the shared operand (GPUBLAS3_PANEL_KB sets both the
# panel floor and the chunk size; at n = 8192 panels stay 1024 wide)
run n8192_b1_p64m 8192 1 1 GPUBLAS3_PANEL_KB=65536
run n8192_b1_p128m 8192 1 1 GPUBLAS3_PANEL_KB=131072

# One line per run: dgemm_'s best time, the pinned-transfer floor, their
# ratio, the host's copies alone (A, B into pinned memory, C back: the
# staging's own floor), the device-only DGEMM, the check, and the last
# timed call's own account (host packing, unpacking, waiting; how often
# the shared operand was packed).
{
printf "%-14s %9s %9s %6s %9s %9s %7s  %s\n" run dgemm_ floor ratio hostcopy compute check \
    "last timed call (GPUBLAS3_VERBOSE)"
for r in $runs; do
    f=$D/$r.txt
    t=$(awk '/^dgemm_/ {print $2}' "$f")
    fl=$(awk '/^floor/ {print $2}' "$f")
    ratio=$(awk '/^dgemm_/ {for (i = 1; i <= NF; i++) if ($i == "floor") print $(i + 1)}' "$f" | tr -d ,)
    cmp=$(awk '/^compute/ {print $2}' "$f")
    hc=$(awk '/^host copy/ {print $3}' "$f")
    chk=$(awk '/^check/ {print $5}' "$f")
    v=$(grep "gpublas3: DGEMM" "$D/$r.err" | sed -n 4p | sed -E 's/.* ([0-9]+ panel\(s\) of)/\1/; s/host packing/pack/; s/unpacking/unpack/')
    printf "%-14s %9s %9s %6s %9s %9s %7s  %s\n" "$r" "${t:-?}" "${fl:-?}" "${ratio:-?}" "${hc:-?}" "${cmp:-?}" \
        "${chk:-?}" "$v"
done
grep -h "exit status [^0]" "$D"/*.txt && echo "(a run failed: see $D)"
grep -h "^h2d\|^d2h\|^host copy" "$D/n8192_b1_new.txt"
} | tee "$D/table.txt"
