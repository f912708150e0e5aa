#!/bin/bash
# Session 4, first H100 call (2026-11-22): the test suite's GPU part on main
# (less LAPACK/ScaLAPACK and test_memlimits, as in session 3's run2.sh),
# then issue 14's complex figures (gpublas3 and CLBlast in one run, cuBLAS
# right after), then the skinny shapes with split-K forced against the
# plan's choice (issue 10).  In order of priority: the call has a hard
# time limit.  Run through bench/gpu_run.sh.
set -u
B=/work/main/.device-carry/build/bench/gpublas3-bench
start=$(date +%s)
(cd /work/main/.device-carry/build && timeout 280 ctest -j6 --timeout 120 -LE "oclgrind|sanitizers|scalapack|liblapack-test" \
    -E "^downstream_|rel_test_memlimits|netlib_lapack" --output-on-failure) > $OUT/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $OUT/ctest.log)"
grep -E "^\s+[0-9]+ - " $OUT/ctest.log
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas || echo "nvcc failed"
timeout 90 $B --device gpu --routines gemm --precisions s,d,c,z --sizes 8192 --peers gpublas3,clblast --reps 3 --csv $OUT/cplx8192.csv > $OUT/cplx8192.txt 2>&1
echo "complex 8192 exit $?"
timeout 60 $B --device gpu --routines gemm,hemm,herk,her2k,trmm,trsm --precisions z --sizes 4096 --peers gpublas3 --reps 3 --csv $OUT/z4096.csv > $OUT/z4096.txt 2>&1
echo "z 4096 exit $?"
timeout 40 /tmp/cublas_peer --routines gemm --precisions s,d,c,z --sizes 8192 --reps 3 --csv $OUT/cublas-cplx.csv > $OUT/cublas-cplx.txt 2>&1
echo "cublas complex exit $?"
SK=8192x64x8192,64x8192x8192,16384x128x4096,128x8192x8192:TN,4096x4096x64
timeout 40 $B --device gpu --shapes $SK --peers gpublas3 --reps 5 > $OUT/skinny-plan.txt 2>&1
GPUBLAS3_PLAN=splitk timeout 40 $B --device gpu --shapes $SK --peers gpublas3 --reps 5 > $OUT/skinny-splitk.txt 2>&1
GPUBLAS3_VERBOSE=1 GPUBLAS3_PLAN=splitk timeout 20 $B --device gpu --shapes $SK --precisions s --peers gpublas3 --reps 1 2>&1 | grep "plan:" | sort | uniq -c > $OUT/skinny-splitk-plans.txt
echo "skinny exit $?"
grep -E "^ *[sdcz](gemm|hemm|herk|her2k|trmm|trsm)|FAIL|ERROR" $OUT/cplx8192.txt $OUT/z4096.txt | cut -c1-130
grep -E "^[sdcz](gemm) " $OUT/cublas-cplx.txt | cut -c1-100
grep -E "^ *[sd]gemm" $OUT/skinny-plan.txt $OUT/skinny-splitk.txt | cut -c1-130
cat $OUT/skinny-splitk-plans.txt | cut -c1-200
