#!/bin/bash
# Session 3, second H100 call (2026-11-22): the test suite's GPU part on the
# merged tree (less the LAPACK/ScaLAPACK runs, which need Debian's testers
# and MPICH there, and test_memlimits, over 150 s there: bench/NOTES.md),
# then TRSM's targets (ours and CLBlast in one run, cuBLAS right after) and
# cuBLAS on the shapes of run1.sh.  In order of priority: the call has a
# hard time limit.  Run through bench/gpu_run.sh.
set -u
B=/work/main/.device-carry/build/bench/gpublas3-bench
SHAPES=32x32x32,64x64x64,128x128x128,256x256x256,512x512x512,64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN,8192x64x8192,64x8192x8192,16384x128x4096,128x8192x8192:TN,4096x4096x64,8192x8192x256,1024x1024x1024,4096x4096x4096,8192x8192x8192
start=$(date +%s)
(cd /work/main/.device-carry/build && timeout 270 ctest -j6 --timeout 120 -LE "oclgrind|sanitizers|scalapack|liblapack-test" \
    -E "^downstream_|rel_test_memlimits|netlib_lapack" --output-on-failure) > $OUT/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $OUT/ctest.log)"
grep -E "^\s+[0-9]+ - " $OUT/ctest.log
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas || echo "nvcc failed"
timeout 70 $B --device gpu --routines gemm,trsm --sizes 1024,4096 --side L --uplo L --transA N --diag N --peers gpublas3,clblast --reps 5 --csv $OUT/trsm.csv > $OUT/trsm.txt 2>&1
echo "trsm exit $?"
timeout 50 /tmp/cublas_peer --routines gemm,trsm --sizes 1024,4096,8192 --reps 5 --csv $OUT/cublas-trsm.csv > $OUT/cublas-trsm.txt 2>&1
echo "cublas trsm exit $?"
timeout 45 $B --device gpu --routines trsm --sizes 8192 --side L --uplo L --transA N --diag N --peers gpublas3 --reps 3 --csv $OUT/trsm8192.csv > $OUT/trsm8192.txt 2>&1
echo "trsm 8192 exit $?"
timeout 50 /tmp/cublas_peer --shapes $SHAPES --reps 5 --csv $OUT/cublas-shapes.csv > $OUT/cublas-shapes.txt 2>&1
echo "cublas shapes exit $?"
grep -E "^ *[sd](gemm|trsm)|over|checked" $OUT/trsm.txt $OUT/trsm8192.txt | cut -c1-120
grep -E "^[sd](gemm|trsm) " $OUT/cublas-trsm.txt | cut -c1-100
