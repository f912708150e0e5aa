#!/bin/bash
# Session 17, H100, call 5 (bench/NOTES.md section 41): the final tree (the
# S large row's swz 2; nothing read in place along m, n where a launch
# prefetches C), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session17/call5.sh"
# 1. the tests that the plan's in-place rule and the rows touch: every
#    class forced on every path with the rule's H100 test (cl_plan), in
#    place, tile maps, the routines packed and split-K, the NVIDIA
#    options, the rows check (the whole first part ran in call 3 with the
#    rule on B' only);
# 2. issue 10's shape suite, gpublas3 and CLBlast 1.5.3 in one run, cuBLAS
#    (no TF32) right after, every result checked first;
# 3. every routine at n = 1024 and 4096, S and D, gpublas3 alone.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call5; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call5.tgz -C /tmp call5; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &

(cd $BD && timeout 160 ctest -j9 --timeout 150 --output-on-failure \
    -R "^cl_plan$|^cl_inplace$|^cl_tilemap|cl_gemm_async|cl_gemm_cpref|bench_h100_rows|^cl_(gemm|symm|syrk|syr2k|trmm|trsm|complex|panels)$|^cl_(gemm|symm|syrk|trmm)_(packed|splitk)$") \
    > $R/tests.log 2>&1
echo "tests exit $? at ${SECONDS} s: $(grep 'tests passed' $R/tests.log)" | tee -a $R/exit.txt
pack

timeout 320 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
echo "suite exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack
wait
timeout 60 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
echo "cublas exit $? at ${SECONDS} s" | tee -a $R/exit.txt
grep -E "checked|target met" $R/shapes.txt
pack

if [ $SECONDS -lt 530 ]; then
    timeout 50 $B --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --precisions s,d --peers gpublas3 \
        --reps 5 --sample 256 --csv $R/routines.csv > $R/routines.txt 2>&1
    echo "routines exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
fi
pack
