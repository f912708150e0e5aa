#!/bin/bash
# Session 8, branch inplace (issue 10): operands read in place by the GEMM
# kernel (bench/NOTES.md section 23).  Run through bench/gpu_run.sh, with
# the branch's build in .device-carry/build:
#   bash bench/gpu_run.sh "bash bench/results/h100/session8/inplace.sh"
# 1. the tests of the new path on the H100 (cl_inplace, and the GEMM, plan,
#    SYRK and panel tests, whose whole-tile cases now read operands in place);
# 2. the plan of each shape below (GPUBLAS3_VERBOSE: ", in place: A B");
# 3. gpublas3 alone on the suite's shapes of the packed and split-K paths:
#    with GPUBLAS3_INPLACE=2 (operands with m, n or k contiguous read in
#    place: every shape reads one or both), 1 (m or n contiguous only:
#    every NN and NT shape reads A or both; the TN shapes none) and 0
#    (every operand packed, as before), and by default ("d": k contiguous
#    where at most 4 tiles read the operand); round 1 all shapes in that
#    order, round 2 the short calls and updates in the opposite order (not 2);
#    every result checked first.  (Runs 1 and 2 of session 8 had no
#    default column: at da7e07c and 6def884, 1 was the default, and at
#    da7e07c 2 was 1.)
# Writes one tarball, $OUT/inplace.tgz.  About 9 minutes.
set -u
BD=${BD:-/work/main/.device-carry/build}
B=$BD/bench/gpublas3-bench
R=$OUT/inplace; mkdir -p $R
ALL=8192x64x8192:NN,64x8192x8192:NN,16384x128x4096:NN,64x64x65536:NN,256x256x16384:NN,512x512x512:NN
ALL=$ALL,8192x8192x256:NT,4096x4096x64:NN,8192x8192x256:NN,1024x1024x1024:NN,4096x4096x4096:NN
ALL=$ALL,128x8192x8192:TN,128x128x32768:TN
SHAPES=${SHAPES:-$ALL}  # (SHAPES, SHORT, BD: to try the script elsewhere)
# the short calls, where one launch less and no pack show most, and the
# updates, where the first run (da7e07c) had in place 0.72-0.98x: the second round
SHORT=${SHORT:-8192x64x8192:NN,64x8192x8192:NN,16384x128x4096:NN,64x64x65536:NN,256x256x16384:NN,512x512x512:NN,8192x8192x256:NT,128x128x32768:TN,128x8192x8192:TN,4096x4096x64:NN,8192x8192x256:NN}

(cd $BD && timeout 200 ctest -R '^cl_(inplace|gemm|gemm_packed|gemm_splitk|gemm_h100|plan|syrk|panels)$' \
    --output-on-failure --timeout 150) > $R/ctest.log 2>&1
echo "ctest exit $?" | tee -a $R/exit.txt
for m in 1 2 d; do
    GPUBLAS3_INPLACE=${m#d} GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $SHAPES --probe --peers gpublas3 2>&1 |
        grep 'plan:' | sort -u > $R/plans-inplace$m.txt
    echo "probe $m exit $?" | tee -a $R/exit.txt
done
run() { # round, list, GPUBLAS3_INPLACE (d: unset)
    GPUBLAS3_INPLACE=${3#d} timeout 130 $B --shapes $2 --reps 5 --peers gpublas3 \
        --csv $R/r$1-inplace$3.csv > $R/r$1-inplace$3.txt 2>&1
    echo "round $1 inplace=$3 exit $?" | tee -a $R/exit.txt
}
run 1 $SHAPES d
run 1 $SHAPES 2
run 1 $SHAPES 1
run 1 $SHAPES 0
run 2 $SHORT 0
run 2 $SHORT 1
run 2 $SHORT d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
grep -h "checked against" $R/r*.txt
# side by side: shape, then the median GFLOP/s by default, with GPUBLAS3_INPLACE=2, 1, 0
col() { grep -E '^[sd]gemm' $1 | awk '{print $1"_"$2"_"$3"_"$4, $5}' | sort; }
{
    echo "round 1: routine_order_op_shape  default  inplace=2  inplace=1  inplace=0 (GFLOP/s)"
    join <(join <(join <(col $R/r1-inplaced.txt) <(col $R/r1-inplace2.txt)) <(col $R/r1-inplace1.txt)) \
        <(col $R/r1-inplace0.txt)
    echo "round 2: routine_order_op_shape  default  inplace=1  inplace=0 (GFLOP/s)"
    join <(join <(col $R/r2-inplaced.txt) <(col $R/r2-inplace1.txt)) <(col $R/r2-inplace0.txt)
} | tee $R/summary.txt
tar czf $OUT/inplace.tgz -C $OUT inplace && rm -rf $R
