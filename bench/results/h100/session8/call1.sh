#!/bin/bash
# Session 8, H100 call 1 (2026-11-23): the two-pass update of C (every load
# of C, then every store; kernels/store.cl) against the kernel before it
# (7abc16b, build b-base), alternating builds twice on the shapes whose
# time the epilogue weighs on (updates with K <= 256, mid squares, skinny,
# deep K, tiny); then every routine against our GEMM at n = 1024 and 4096
# (issue 10: >= 0.7x at 1024, >= 0.9x at 4096) with the new kernel.
# gpublas3 only (peers in the final call); every result checked first.
set -u
R=$OUT/s8c1; mkdir -p $R
SH=4096x4096x64,4096x4096x256,8192x8192x128,8192x8192x256,8192x8192x256:NT,16384x16384x256,256x256x256,512x512x512,1024x1024x1024,2048x2048x2048,8192x8192x8192,8192x64x8192,16384x128x4096,256x256x16384,64x64x64,128x128x128
for r in 1 2; do
  for b in b-base build; do
    timeout 200 /work/main/.device-carry/$b/bench/gpublas3-bench --shapes $SH --reps 5 --sample 512 --peers gpublas3 \
      --csv $R/ab-$b-$r.csv > $R/ab-$b-$r.txt 2>&1
    echo "$b round $r exit $?" | tee -a $R/exit.txt
  done
done
timeout 240 /work/main/.device-carry/build/bench/gpublas3-bench --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 \
  --reps 5 --sample 512 --peers gpublas3 --csv $R/routines.csv > $R/routines.txt 2>&1
echo "routines exit $?" | tee -a $R/exit.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
grep -hE "checked|FAIL" $R/*.txt | sort | uniq -c
tar czf $OUT/s8c1.tgz -C $OUT s8c1 && rm -rf $R
