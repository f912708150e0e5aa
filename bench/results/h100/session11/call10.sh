#!/bin/bash
# Session 11, H100, call 10: can the driver pin a caller's pages fast
# enough for a drop-in call when several threads pin pieces at once?
# (issue 12 item 3; bench/link_probe.c's "host-ptr in T pieces": T threads
# each create a CL_MEM_USE_HOST_PTR buffer over a T-th of a 512 MiB array,
# then the pieces are copied to the device, then released at once; one
# thread pinned at 25-30 GB/s in session 6, NOTES 19.)  T = 1, 4, 8, 16,
# best of 3, every transfer checked.  Writes $OUT/call10.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call10; mkdir -p $R
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; lscpu | grep -E 'Model name|^CPU\(s\)'; } > $R/machine.txt
for t in 1 4 8 16; do
    timeout 40 $BD/bench/gpublas3-link-probe 512 3 $t > $R/link-t$t.txt 2>&1
    echo "T=$t exit $? at ${SECONDS} s"
    grep -E 'T pieces|host-ptr: |staged: pinned write|checked|WRONG' $R/link-t$t.txt
done
tar czf $OUT/call10.tgz -C $OUT call10 && rm -rf $R
