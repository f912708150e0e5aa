#!/bin/bash
# Session 3, first H100 call (2026-11-22): the plan's paths on the shapes
# where they matter (small, deep-K, skinny, plus updates and squares to show
# no loss), CLBlast in the same run and cuBLAS right after; TRSM's targets
# against CLBlast, our GEMM and cuBLAS, then its block order (in order of
# priority: the call has a hard time limit).  Run from the
# repository root through bench/gpu_run.sh (ICD, carried .debs, build).
set -u
B=/work/main/.device-carry/build/bench/gpublas3-bench
SHAPES=32x32x32,64x64x64,128x128x128,256x256x256,512x512x512,64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN,8192x64x8192,64x8192x8192,16384x128x4096,128x8192x8192:TN,4096x4096x64,8192x8192x256,1024x1024x1024,4096x4096x4096,8192x8192x8192
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu -lcublas || echo "nvcc failed"
GPUBLAS3_VERBOSE=1 timeout 60 $B --device gpu --shapes 64x64x64,64x64x65536,8192x64x8192 --precisions s --peers gpublas3 --reps 1 2>&1 | grep "plan:" | sort | uniq -c > $OUT/plans.txt
timeout 200 $B --device gpu --shapes $SHAPES --peers gpublas3,clblast --reps 5 --csv $OUT/shapes.csv --json $OUT/shapes.json > $OUT/shapes.txt 2>&1
echo "shapes exit $?"
timeout 60 /tmp/cublas_peer --shapes $SHAPES --reps 5 --csv $OUT/cublas-shapes.csv > $OUT/cublas-shapes.txt 2>&1
echo "cublas shapes exit $?"
timeout 100 $B --device gpu --routines gemm,trsm --sizes 1024,4096,8192 --side L --uplo L --transA N --diag N --peers gpublas3,clblast --reps 5 --csv $OUT/trsm.csv > $OUT/trsm.txt 2>&1
echo "trsm exit $?"
timeout 60 /tmp/cublas_peer --routines gemm,trsm --sizes 1024,4096,8192 --reps 5 --csv $OUT/cublas-trsm.csv > $OUT/cublas-trsm.txt 2>&1
echo "cublas trsm exit $?"
for p in trsm_nb=64 trsm_nb=128 trsm_nb=256 trsm_nb=128,trsm_refine=0; do
  GPUBLAS3_PARAMS=$p timeout 30 $B --device gpu --routines trsm --sizes 4096 --side L --uplo L --transA N --diag N --peers gpublas3 --reps 3 2>&1 | grep -E '^ *[sd]trsm' | sed "s/^/$p /"
done > $OUT/trsm-nb.txt
cat $OUT/plans.txt $OUT/trsm-nb.txt
tail -n 60 $OUT/shapes.txt | grep -E "gemm|target|checked"
grep -E "trsm|gemm|checked" $OUT/trsm.txt | tail -n 20
grep -E "^[sd]" $OUT/cublas-shapes.txt $OUT/cublas-trsm.txt | cut -c1-110
