#!/bin/bash
# Session 16, H100, call 3 (bench/NOTES.md section 40): the final rows (swz
# on the S large, medium, skinny, deepk rows and the D large, medium,
# deepk rows), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session16/call3.sh"
# 1. the tests that run those rows' kernels: every class forced on every
#    path (cl_plan), the medium class forced, operands in place, the
#    routines packed and split-K, the NVIDIA options, bench_h100_rows
#    (the whole first part ran in call 2 with the D large row of now);
# 2. issue 10's shape suite, gpublas3 and CLBlast 1.5.3 in one run, cuBLAS
#    (no TF32) right after, every result checked first;
# 3. every routine at n = 1024 and 4096, S and D, gpublas3 alone;
# 4. D 8192^2x256 NT (both operands in place: 21 TFLOP/s in call 2
#    against 28 packed) against NN, on the D large row, with async 0,
#    with the old 8-deep padded geometry, and packed.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call3; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call3.tgz -C /tmp call3; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
(nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas > $R/nvcc.log 2>&1 \
    || echo "nvcc failed" >> $R/nvcc.log) &

(cd $BD && timeout 160 ctest -j9 --timeout 150 --output-on-failure \
    -R "^cl_plan$|^cl_inplace$|_medium$|cl_gemm_async|cl_gemm_cpref|bench_h100_rows|^cl_(gemm|symm|syrk|syr2k|trmm|trsm|complex|panels)$|^cl_(gemm|symm|syrk|trmm)_(packed|splitk)$") \
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

if [ $SECONDS -lt 490 ]; then
    timeout 50 $B --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --precisions s,d --peers gpublas3 \
        --reps 5 --sample 256 --csv $R/routines.csv > $R/routines.txt 2>&1
    echo "routines exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
fi
for v in plan async0 old packed; do
    [ $SECONDS -gt 545 ] && break
    P=""; I=""
    case $v in
    async0) P="d:large:async=0" ;;
    old) P="d:large:kwg=8,pad=4,swz=0" ;;
    packed) I=0 ;;
    esac
    GPUBLAS3_PARAMS="$P" GPUBLAS3_INPLACE="$I" timeout 20 $B --shapes 8192x8192x256:NT,8192x8192x256 --precisions d \
        --peers gpublas3 --reps 5 --sample 256 --csv $R/nt-$v.csv > $R/nt-$v.txt 2>&1
    echo "nt $v exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
done
pack
