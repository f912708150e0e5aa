#!/bin/bash
# Session 12, H100, call 4 (the final tree), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session12/call4.sh"
# 1. TRSM as adopted (the leaf kernel's first version, call 1's, which
#    beat calls 2-3's in D; the leaf rule) against GEMM, left lower N;
# 2. the tests call 3's suite run left to check: cl_plan (two test defects
#    there: the H100's S medium_k took calls the medium_boundary and
#    shallow_medium cases meant for other rules), the TRSM tests on the
#    adopted kernel, and the real LAPACK testers (every call on the
#    device) except the complex least-squares four, which reach no changed
#    code on the H100 (complex solves keep the blocked path; their calls
#    are too small for medium_k) and take ~490 s.
# Writes $OUT/call4.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=$OUT/call4; mkdir -p $R $BD/Testing/Temporary
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt
for r in 1 2; do
    timeout 40 $B --routines gemm,trsm --precisions s,d --peers gpublas3 --reps 5 --sample 256 --side L --uplo L \
        --transA N --diag N --sizes 128,256,512,1024,2048,4096 --csv $R/final-$r.csv > $R/final-$r.txt 2>&1
    echo "final-$r exit $? at ${SECONDS} s: $(grep -E 'checked against' $R/final-$r.txt)"
done
printf '%s\n' "netlib_lapack_d_trsm_direct 1 150" "netlib_lapack_s_trsm_direct 1 149" "netlib_lapack_d 1 148" \
    "netlib_lapack_s 1 147" "netlib_lapack_c_qr 1 120" "netlib_lapack_z_qr 1 119" "cl_plan 1 93" "---" \
    > $BD/Testing/Temporary/CTestCostData.txt
(cd $BD && timeout 420 ctest -j12 --timeout 400 \
    -R 'cl_plan$|cl_trsm|bench_trsm_commands|netlib_blas3_[sd]|netlib_lapack_[sd]|netlib_lapack_[cz]_(qr|ge_po)' \
    -LE 'oclgrind|sanitizers|scalapack|mpich' --output-on-failure) > $R/tests.log 2>&1
echo "tests exit $? at ${SECONDS} s: $(grep -E 'tests passed' $R/tests.log)"
grep -E '^\s+[0-9]+ - ' $R/tests.log
grep -E 'Test +#' $R/tests.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/' | sort -g -r | head -30
tar czf $OUT/call4.tgz -C $OUT call4
