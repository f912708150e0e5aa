#!/bin/bash
# Session 7, issue 12 item 3: the host's staging copies on the H100's host
# (branch copy7; bench/NOTES.md 20).  dgemm_ from malloc'd arrays with the
# staging copies made with streaming stores (the new default) and with
# memcpy (GPUBLAS3_STREAM_COPY=0, the old way), interleaved in one run,
# next to the pinned-transfer floor and the host-copy floors host_timing
# measures in the same process (`host copy`: memcpy, `host copy stream`:
# the library's streaming copy); and bench/copy_probe.c on 1, 4, 8, 16
# threads (the memory's read rate and every staging copy at the pipeline's
# sizes).  Run from the repository root, the build carried in
# .device-carry/build (configured with -B /work/main/.device-carry/build):
#
#   bash bench/gpu_run.sh "bash bench/results/h100/session7/copy_call.sh"
#
# Everything lands in $OUT/copy7.tgz (copy7/table.txt is the summary, also
# printed); about 2 minutes.  N1, N2 and PROBE_MB (8192, 4096, 512) make
# it small for a dry run elsewhere.
set -u
N1=${N1:-8192} N2=${N2:-4096} M=${PROBE_MB:-512}
B=${B:-/work/main/.device-carry/build}
T=$B/tests/host/host_timing
P=$B/bench/gpublas3-copy-probe
R=${OUT:-/tmp/out}/copy7
mkdir -p "$R"
if ! grep -q GPUBLAS3_STREAM_COPY "$B/libgpublas3.so" || [ ! -x "$P" ]; then
    echo "the carried build predates GPUBLAS3_STREAM_COPY or lacks gpublas3-copy-probe: rebuild it"
    exit 1
fi
{ date -u; lscpu; ldd --version | head -n 1; grep . /sys/kernel/mm/transparent_hugepage/enabled; free -g; } \
    > "$R/host.txt" 2>&1

# The probe: 512 MB of caller's array, the pipeline's 32 MiB jobs (A's
# chunks) on 1, 4, 8, 16 threads; 64 MiB jobs (a panel's B and C) on 16;
# and a 16 MB array with 2 MB jobs (in the cache: where streaming stores
# lose, which the 1 MiB threshold must not hit often).
timeout 60 "$P" $M 32 5 1 4 8 16 > "$R/probe.txt" 2>&1
timeout 20 "$P" $M 64 5 16 > "$R/probe_64m.txt" 2>&1
timeout 20 "$P" 16 2 5 16 > "$R/probe_cached.txt" 2>&1

export GPUBLAS3_CROSSOVER=0 GPUBLAS3_VERBOSE=1
REPS=5
runs=""
run() {  # label n beta stream [VAR=value...]
    label=$1 n=$2 beta=$3 stream=$4
    shift 4
    timeout 40 env GPUBLAS3_STREAM_COPY=$stream "$@" "$T" "$n" $REPS "$beta" - >"$R/$label.txt" 2>"$R/$label.err"
    echo "exit status $?" >>"$R/$label.txt"
    runs+="$label "
}
run n${N1}_b1_on $N1 1 1
run n${N1}_b1_off $N1 1 0
run n${N1}_b1_on2 $N1 1 1
run n${N1}_b1_off2 $N1 1 0
run n${N1}_b0_on $N1 0 1
run n${N1}_b0_off $N1 0 0
run n${N2}_b1_on $N2 1 1
run n${N2}_b1_off $N2 1 0
run n${N2}_b0_on $N2 0 1
run n${N2}_b0_off $N2 0 0
# the thread count and the panel size with streaming stores
run n${N1}_b1_on_t8 $N1 1 1 GPUBLAS3_COPY_THREADS=8
run n${N1}_b1_on_t12 $N1 1 1 GPUBLAS3_COPY_THREADS=12
run n${N1}_b1_on_p64m $N1 1 1 GPUBLAS3_PANEL_KB=65536

# One line per run: dgemm_'s best and median of REPS timed calls (the
# verbose lines 2..REPS+1: line 1 is the warm-up, the last the check), the
# floor, best/floor, the host-copy floors (memcpy, streaming), the
# device-only DGEMM, the check, and the median call's own account.
{
printf "%-17s %8s %8s %7s %6s %8s %8s %8s %6s  %s\n" run best median floor ratio hcopy hcopy_nt compute check \
    "median timed call (GPUBLAS3_VERBOSE)"
for r in $runs; do
    f=$R/$r.txt
    t=$(awk '/^dgemm_/ {print $2}' "$f")
    fl=$(awk '/^floor/ {print $2}' "$f")
    ratio=$(awk '/^dgemm_/ {for (i = 1; i <= NF; i++) if ($i == "floor") print $(i + 1)}' "$f" | tr -d ,)
    hc=$(awk '/^host copy  / {print $3}' "$f")
    hs=$(awk '/^host copy stream/ {print $4}' "$f")
    cmp=$(awk '/^compute/ {print $2}' "$f")
    chk=$(awk '/^check/ {print $5}' "$f")
    mid=$(grep "gpublas3: DGEMM.*done in" "$R/$r.err" | sed -n "2,$((REPS + 1))p" |
          sed -E 's/.* done in ([0-9.]+) s.*/\1 &/' | sort -n | sed -n "$(((REPS + 1) / 2))p")
    printf "%-17s %8s %8s %7s %6s %8s %8s %8s %6s  %s\n" "$r" "${t:-?}" "${mid%% *}" "${fl:-?}" "${ratio:-?}" \
        "${hc:-?}" "${hs:-?}" "${cmp:-?}" "${chk:-?}" \
        "$(echo "${mid#* }" | sed -E 's/.*done in/done in/; s/host packing/pack/; s/unpacking/unpack/')"
done
grep -h "exit status [^0]" "$R"/*.txt && echo "(a run failed: see $R)"
grep -h "^h2d\|^d2h\|^host copy" "$R/n${N1}_b1_on.txt"
grep -h "^host copy" "$R/n${N1}_b0_on.txt"
echo "-- copy probe (GB/s of data copied; streams over the memory bus: read 1, in/out_stream 2, memcpy 2 or 3, beta 3)"
cat "$R/probe.txt" "$R/probe_64m.txt" "$R/probe_cached.txt"
grep -E "^Model name|^Thread|^Core|^Socket|^L3|^NUMA node\(s\)" "$R/host.txt"
} | tee "$R/table.txt"
tar czf "${OUT:-/tmp/out}/copy7.tgz" -C "${OUT:-/tmp/out}" copy7 && rm -rf "$R"
