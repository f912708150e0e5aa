#!/bin/bash
# Session 8, H100, the final tree (2026-11-23), through bench/gpu_run.sh:
#   tests:  the suite's first part (session7/suite.sh part1), then every
#           routine against our GEMM at n = 1024 and 4096 (issue 10: >= 0.7x
#           at 1024, >= 0.9x at 4096), gpublas3 only, every result checked
#   shapes: issue 10's shape suite, gpublas3 and CLBlast 1.5.3 in one run,
#           cuBLAS (no TF32) right after, every result checked first
#   lapack: the suite's second part (session7/suite.sh part2)
set -u
BD=/work/main/.device-carry/build
B=$BD/bench/gpublas3-bench
R=$OUT/final-$1; mkdir -p $R
case $1 in
tests)
    bash bench/results/h100/session7/suite.sh part1 > $R/suite.txt 2>&1
    cat $R/suite.txt
    timeout 150 $B --routines gemm,symm,syrk,syr2k,trmm,trsm --sizes 1024,4096 --reps 5 --sample 512 --peers gpublas3 \
        --csv $R/routines.csv > $R/routines.txt 2>&1
    echo "routines exit $?"; grep -E "checked against" $R/routines.txt
    # each routine's plan at n = 1024 (why SYRK, SYR2K, TRMM reach less of GEMM's rate there)
    GPUBLAS3_VERBOSE=1 timeout 60 $B --routines gemm,symm,syrk,syr2k,trmm --sizes 1024 --precisions s,d --peers gpublas3 \
        --probe 2>&1 | grep 'plan:' > $R/plans-1024.txt
    ;;
shapes)
    nvcc -O2 -Ibench -o /tmp/cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas || echo "nvcc failed"
    timeout 420 $B --suite shapes --reps 5 --peers gpublas3,clblast --csv $R/shapes.csv --json $R/shapes.json > $R/shapes.txt 2>&1
    echo "suite exit $?" | tee -a $R/exit.txt
    timeout 90 /tmp/cublas_peer --suite shapes --reps 5 --csv $R/cublas-shapes.csv > $R/cublas-shapes.txt 2>&1
    echo "cublas exit $?" | tee -a $R/exit.txt
    grep -E "checked|target met" $R/shapes.txt
    ;;
lapack)
    bash bench/results/h100/session7/suite.sh part2 > $R/suite.txt 2>&1
    cat $R/suite.txt
    ;;
esac
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
[ -f $OUT/suite-part1.tgz ] && mv $OUT/suite-part1.tgz $R/
[ -f $OUT/suite-part2.tgz ] && mv $OUT/suite-part2.tgz $R/
tar czf $OUT/final-$1.tgz -C $OUT final-$1 && rm -rf $R
