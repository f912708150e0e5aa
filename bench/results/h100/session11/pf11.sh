#!/bin/bash
# Session 11, issue 12 item 3: software prefetch in the host's staging
# copies (branch pf11; bench/NOTES.md 33).  dgemm_ from malloc'd arrays
# with the copies' sources prefetched 4096 bytes ahead (the new default)
# and without (GPUBLAS3_PREFETCH=0, the old way), alternating, two rounds
# (the second in the other order), next to the pinned-transfer floor and
# the host-copy floors host_timing measures in the same process; and
# bench/copy_probe.c on 16 threads, prefetch on and off twice, three other
# distances, one thread on and off, and on and off with the probe's
# arrays on 2 MiB pages (glibc.malloc.hugetlb=1: no 4 KiB page walks, the
# thing prefetch works around).  Run from the repository root, the build
# carried in .device-carry/build (configured with
# -B /work/main/.device-carry/build):
#
#   bash bench/gpu_run.sh "bash bench/results/h100/session11/pf11.sh"
#
# At most 120 s: every step is capped by timeout and skipped once the run
# is past its start limit.  Everything lands in $OUT/pf11/ and
# $OUT/pf11.tgz (pf11/table.txt is the summary, also printed).  N1, N2,
# PROBE_MB and REPS (8192, 4096, 512, 5) make it small for a dry run
# elsewhere; B names another build.
set -u
N1=${N1:-8192} N2=${N2:-4096} M=${PROBE_MB:-512} REPS=${REPS:-5}
B=${B:-/work/main/.device-carry/build}
T=$B/tests/host/host_timing
P=$B/bench/gpublas3-copy-probe
O=${OUT:-/tmp/out}
R=$O/pf11
mkdir -p "$R"
if ! grep -q GPUBLAS3_PREFETCH "$B/libgpublas3.so" || [ ! -x "$P" ] || [ ! -x "$T" ]; then
    echo "the carried build predates GPUBLAS3_PREFETCH or lacks gpublas3-copy-probe or host_timing: rebuild it"
    exit 1
fi
{ date -u; lscpu; ldd --version | head -n 1; grep . /sys/kernel/mm/transparent_hugepage/enabled; free -g;
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$R/host.txt" 2>&1
export GPUBLAS3_CACHE_DIR=$B/gpublas3-cache
SECONDS=0
skipped=""

# step LIMIT CAP NAME CMD...: CMD's output into NAME.txt, unless the run
# is past LIMIT seconds; at most CAP seconds.
step() {
    local limit=$1 cap=$2 name=$3
    shift 3
    if [ "$SECONDS" -gt "$limit" ]; then
        skipped+="$name "
        return
    fi
    timeout "$cap" "$@" > "$R/$name.txt" 2> "$R/$name.err"
    echo "exit status $? at ${SECONDS} s" >> "$R/$name.txt"
}

# 1. The probe (about 1.5 s a run on 16 threads): 512 MB of caller's
#    array, the pipeline's 32 MiB jobs.
HUGE=GLIBC_TUNABLES=glibc.malloc.hugetlb=1
step 10 12 probe_on1 env GPUBLAS3_PREFETCH=4096 "$P" $M 32 5 16
step 10 12 probe_off1 env GPUBLAS3_PREFETCH=0 "$P" $M 32 5 16
step 12 12 probe_off2 env GPUBLAS3_PREFETCH=0 "$P" $M 32 5 16
step 12 12 probe_on2 env GPUBLAS3_PREFETCH=4096 "$P" $M 32 5 16
step 14 8 probe_d1024 env GPUBLAS3_PREFETCH=1024 "$P" $M 32 5 16
step 14 8 probe_d2048 env GPUBLAS3_PREFETCH=2048 "$P" $M 32 5 16
step 16 8 probe_d8192 env GPUBLAS3_PREFETCH=8192 "$P" $M 32 5 16
step 18 8 probe_huge_off env $HUGE GPUBLAS3_PREFETCH=0 "$P" $M 32 5 16
step 18 8 probe_huge_on env $HUGE GPUBLAS3_PREFETCH=4096 "$P" $M 32 5 16
step 22 8 probe_t1_on env GPUBLAS3_PREFETCH=4096 "$P" $M 32 3 1
step 24 8 probe_t1_off env GPUBLAS3_PREFETCH=0 "$P" $M 32 3 1

# 2. dgemm_ from host arrays (REPS timed calls after a warm-up; about 7 s
#    a run at 8192, 2 s at 4096), prefetch on and off alternating; round
#    2 runs each pair the other way round.
export GPUBLAS3_CROSSOVER=0 GPUBLAS3_VERBOSE=1
runs=""
dg() {  # round n beta setting
    local name=n$2_b$3_$4$1 pf=4096 limit=98 cap=20
    [ "$4" = off ] && pf=0
    [ "$2" = "$N2" ] && limit=106 cap=12
    step $limit $cap "$name" env GPUBLAS3_PREFETCH=$pf "$T" "$2" "$REPS" "$3" -
    [ -f "$R/$name.err" ] && runs+="$name "
}
for r in 1 2; do
    for c in "$N1 1" "$N1 0" "$N2 0"; do
        if [ $r = 1 ]; then dg $r $c on; dg $r $c off; else dg $r $c off; dg $r $c on; fi
    done
done
# 3. if there is time left: dgemm_ with the caller's arrays on 2 MiB pages
step 90 20 n${N1}_b1_huge_off env $HUGE GPUBLAS3_PREFETCH=0 "$T" "$N1" "$REPS" 1 -
step 90 20 n${N1}_b1_huge_on env $HUGE GPUBLAS3_PREFETCH=4096 "$T" "$N1" "$REPS" 1 -
for x in n${N1}_b1_huge_off n${N1}_b1_huge_on; do [ -f "$R/$x.err" ] && runs+="$x "; done

# One line per dgemm_ run: best and median of REPS timed calls (the
# verbose lines 2..REPS+1: line 1 is the warm-up, the last the check),
# the floor, median/floor, the host-copy floor with streaming stores (and
# this run's prefetch), the check, and the median call's own account.
median_call() {  # run -> "seconds account"
    grep -s "gpublas3: DGEMM.*done in" "$R/$1.err" | sed -n "2,$((REPS + 1))p" |
        sed -E 's/.* done in ([0-9.]+) s.*/\1 &/' | sort -n | sed -n "$(((REPS + 1) / 2))p"
}
{
printf "%-17s %8s %8s %7s %6s %8s %6s  %s\n" run best median floor m/flr hcopy_nt check \
    "median timed call (GPUBLAS3_VERBOSE)"
for r in $runs; do
    f=$R/$r.txt
    t=$(awk '/^dgemm_/ {print $2}' "$f")
    fl=$(awk '/^floor/ {print $2}' "$f")
    hs=$(awk '/^host copy stream/ {print $4}' "$f")
    chk=$(awk '/^check/ {print $5}' "$f")
    mid=$(median_call "$r")
    ratio=$(awk -v a="${mid%% *}" -v b="$fl" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "?" }')
    printf "%-17s %8s %8s %7s %6s %8s %6s  %s\n" "$r" "${t:-?}" "${mid%% *}" "${fl:-?}" "$ratio" "${hs:-?}" \
        "${chk:-?}" "$(echo "${mid#* }" | sed -E 's/.*done in/done in/; s/host packing/pack/; s/unpacking/unpack/')"
done
echo "-- dgemm_ median of the timed calls' medians (ms), rounds 1 / 2, prefetch 4096 against 0; floor: median of this case's runs"
printf "%-12s %17s %17s %7s %6s %6s\n" case "on r1/r2" "off r1/r2" floor on/flr off/flr
for c in "$N1 1" "$N1 0" "$N2 0"; do
    set -- $c
    k=n$1_b$2
    med() { local m; m=$(median_call "$1"); echo "${m%% *}"; }
    on1=$(med ${k}_on1) on2=$(med ${k}_on2) off1=$(med ${k}_off1) off2=$(med ${k}_off2)
    fl=$(cat "$R/${k}"_o*.txt 2>/dev/null | awk '/^floor/ {print $2}' | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
    awk -v k="$k" -v a="$on1" -v b="$on2" -v c="$off1" -v d="$off2" -v f="$fl" '
        function ms(x) { return x > 0 ? sprintf("%.1f", 1e3 * x) : "-" }
        function ratio(x) { return x > 0 && f > 0 ? sprintf("%.2f", x / f) : "-" }
        BEGIN {
        on = (a > 0 && b > 0) ? (a + b) / 2 : (a > 0 ? a : b); off = (c > 0 && d > 0) ? (c + d) / 2 : (c > 0 ? c : d)
        printf "%-12s %8s/%-8s %8s/%-8s %7s %6s %6s\n", k, ms(a), ms(b), ms(c), ms(d), ms(f), ratio(on), ratio(off) }'
done
echo "-- copy probe, 16 threads unless named (GB/s of data; read: 1 bus stream, in/out_stream 2, out_beta 3)"
printf "%-15s %7s %7s %9s %10s %9s %10s\n" probe read memset in_memcpy in_stream out_beta out_stream
for p in probe_on1 probe_off1 probe_off2 probe_on2 probe_d1024 probe_d2048 probe_d8192 probe_huge_off probe_huge_on \
         probe_t1_on probe_t1_off; do
    [ -f "$R/$p.txt" ] || continue
    awk -v p="$p" '/^threads/ { v[$3] = $4 } END {
        printf "%-15s %7s %7s %9s %10s %9s %10s\n", p, v["read"], v["memset"], v["in_memcpy"], v["in_stream"],
            v["out_beta"], v["out_stream"] }' "$R/$p.txt"
done
[ -n "$skipped" ] && echo "skipped past their start limits: $skipped"
grep -l "exit status [^0]" "$R"/*.txt | sed 's/^/failed or timed out: /'
grep -h "^h2d\|^d2h\|^compute\|^host copy" "$R/n${N1}_b1_on1.txt" 2>/dev/null
grep -h "^host copy" "$R/n${N1}_b1_off1.txt" 2>/dev/null
grep -E "^Model name|^Thread|^Core|^Socket|^L2|^L3|^NUMA node\(s\)|always" "$R/host.txt"
echo "total ${SECONDS} s"
} | tee "$R/table.txt"
tar czf "$O/pf11.tgz" -C "$O" pf11
