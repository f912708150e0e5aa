#!/bin/bash
# Session 19, H100, call 1 (bench/NOTES.md section 43), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session19/call1.sh"
# 1. the two tests session 17 could not run on the H100 (cl_plan's
#    h100_prefetch_packs_b S case; cl_inplace);
# 2. deep K and the routines at 1024: each step's device time
#    (GPUBLAS3_TRACE=1 on the bench's profiling queue), to split the
#    split-K slices from the reduction (section 41: ~55 us counted against
#    ~110 measured on D 256^2x16384);
# 3. NVIDIA's register counts of the S large set with A' in place;
# 4. the suite's first part (session7/suite.sh part1) on the landed code.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call1; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call1.tgz -C /tmp call1; }
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
(cd $BD && timeout 120 ctest -R '^cl_plan$|^cl_inplace$' --output-on-failure) > $R/ctest-plan.txt 2>&1
echo "ctest plan exit $? at ${SECONDS} s" | tee -a $R/exit.txt
pack
DK="64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN"
for p in d s; do
    GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $DK --precisions $p \
        --peers gpublas3 --reps 3 --sample 256 > $R/trace-dk-$p.txt 2>&1
    echo "trace dk $p exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 timeout 60 $B --routines gemm,syrk,trmm --sizes 1024 \
        --precisions $p --peers gpublas3 --reps 3 > $R/trace-r1k-$p.txt 2>&1
    echo "trace r1k $p exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
done
# plain wall times of the same, no profiling queue, for scale
timeout 90 $B --shapes $DK --precisions s,d --peers gpublas3 --reps 7 --sample 256 --csv $R/dk.csv > $R/dk.txt 2>&1
timeout 90 $B --routines gemm,syrk,trmm --sizes 1024 --precisions s,d --peers gpublas3 --reps 7 --csv $R/r1k.csv > $R/r1k.txt 2>&1
echo "plain exit $? at ${SECONDS} s" | tee -a $R/exit.txt
# register counts: S large, A' in place along m (NN 8192^2x1024) and k (TN 512^2x8192)
for sh in 8192x8192x1024:NN 512x512x8192:TN 8192x8192x256:NN; do
    rm -rf /tmp/fresh
    GPUBLAS3_CACHE_DIR=/tmp/fresh GPUBLAS3_BUILD_LOG=1 GPUBLAS3_CL_OPTIONS=-cl-nv-verbose CUDA_CACHE_DISABLE=1 \
        GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $sh --precisions s --peers gpublas3 --reps 1 --sample 64 \
        > $R/nv-s-${sh%%:*}-${sh##*:}.txt 2>&1
done
echo "nv exit at ${SECONDS} s" | tee -a $R/exit.txt
pack
cd /work/main && bash bench/results/h100/session7/suite.sh part1 > $R/suite-part1.txt 2>&1
echo "suite part1 exit $? at ${SECONDS} s" | tee -a $R/exit.txt
tail -30 $R/suite-part1.txt
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
