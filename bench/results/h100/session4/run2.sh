#!/bin/bash
# Session 4, second H100 call (2026-11-22): the out-of-order fix
# (rel_test_pool), LAPACK's test suite preloaded with its times (issue 12's
# 3x target), issue 14's complex figures that call 1 ran out of time for,
# the host-path timings and the crossover's constants (issue 12), and the
# direct kernel on the skinny shapes (issue 10).  In order of priority.
# Run through bench/gpu_run.sh.
set -u
BD=/work/main/.device-carry/build
B=$BD/bench/gpublas3-bench
(cd $BD && timeout 100 ctest -R "rel_test_pool|rel_test_async|cl_async" --timeout 90 --output-on-failure) > $OUT/ctest-pool.log 2>&1
echo "pool/async exit $?: $(grep -E 'tests passed' $OUT/ctest-pool.log)"; grep -E "Failed|FAIL" $OUT/ctest-pool.log | head
(cd $BD && timeout 200 ctest -j3 -L liblapack-test --timeout 190 -V) > $OUT/ctest-lapack.log 2>&1
echo "lapack exit $?: $(grep -E 'tests passed' $OUT/ctest-lapack.log)"; grep -E "alone|preloaded|ratio|FAIL|Passed|Failed" $OUT/ctest-lapack.log | cut -c1-160 | head -30
nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas || echo "nvcc failed"
timeout 130 $B --device gpu --routines gemm --precisions c,z --sizes 8192 --peers gpublas3,clblast --reps 3 --csv $OUT/cz8192.csv > $OUT/cz8192.txt 2>&1
echo "c,z 8192 exit $?"
timeout 120 $B --device gpu --routines gemm,hemm,herk,her2k,trmm,trsm --precisions z --sizes 4096 --peers gpublas3 --reps 3 --csv $OUT/z4096.csv > $OUT/z4096.txt 2>&1
echo "z 4096 exit $?"
timeout 40 /tmp/cublas_peer --routines gemm,hemm,herk,her2k,trmm --precisions z --sizes 4096 --reps 3 --csv $OUT/cublas-z4096.csv > $OUT/cublas-z4096.txt 2>&1
echo "cublas z4096 exit $?"
SK=8192x64x8192,64x8192x8192,16384x128x4096,128x8192x8192:TN
GPUBLAS3_PLAN=direct timeout 30 $B --device gpu --shapes $SK --peers gpublas3 --reps 5 > $OUT/skinny-direct.txt 2>&1
echo "skinny direct exit $?"
timeout 100 sh tests/host/run_host_timing.sh $BD $OUT/host 8192 > $OUT/host-timing.txt 2>&1
echo "host timing exit $?"
grep -E "^ *[cz](gemm|hemm|herk|her2k|trmm|trsm)|FAIL|ERROR" $OUT/cz8192.txt $OUT/z4096.txt | cut -c1-130
grep -E "^z" $OUT/cublas-z4096.txt | cut -c1-100
grep -E "^ *[sd]gemm" $OUT/skinny-direct.txt | cut -c1-100
cat $OUT/host-timing.txt | cut -c1-160 | tail -40
