#!/bin/bash
# Session 8, branch inplace (issue 10): operands read in place by the GEMM
# kernel (bench/NOTES.md section 23).  Run through bench/gpu_run.sh, with
# the branch's build in .device-carry/build:
#   bash bench/gpu_run.sh "bash bench/results/h100/session8/inplace.sh"
# 1. the tests of the new path on the H100 (cl_inplace, and the GEMM, plan,
#    SYRK and panel tests, whose whole-tile cases now read operands in place);
# 2. the plan of each shape below (GPUBLAS3_VERBOSE: ", in place: A B");
# 3. gpublas3 alone on the suite's shapes that read an operand in place
#    (every NN and NT shape of the packed and split-K paths) and two TN
#    controls that read none, with in place on (default) and off
#    (GPUBLAS3_INPLACE=0), alternating, twice; every result checked first.
# Writes one tarball, $OUT/inplace.tgz.  About 6-8 minutes.
set -u
BD=${BD:-/work/main/.device-carry/build}
B=$BD/bench/gpublas3-bench
R=$OUT/inplace; mkdir -p $R
ALL=8192x64x8192:NN,64x8192x8192:NN,16384x128x4096:NN,64x64x65536:NN,256x256x16384:NN,512x512x512:NN
ALL=$ALL,8192x8192x256:NT,4096x4096x64:NN,8192x8192x256:NN,1024x1024x1024:NN,4096x4096x4096:NN
ALL=$ALL,128x8192x8192:TN,128x128x32768:TN
SHAPES=${SHAPES:-$ALL}  # (SHAPES, SHORT, BD: to try the script elsewhere)
# the short calls, where one launch less and no pack show most: the second round
SHORT=${SHORT:-8192x64x8192:NN,64x8192x8192:NN,16384x128x4096:NN,64x64x65536:NN,256x256x16384:NN,512x512x512:NN,8192x8192x256:NT,128x128x32768:TN}

(cd $BD && timeout 200 ctest -R '^cl_(inplace|gemm|gemm_packed|gemm_splitk|gemm_h100|plan|syrk|panels)$' \
    --output-on-failure --timeout 150) > $R/ctest.log 2>&1
echo "ctest exit $?" | tee -a $R/exit.txt
GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $SHAPES --probe --peers gpublas3 2>&1 | grep 'plan:' | sort -u > $R/plans.txt
echo "probe exit $?" | tee -a $R/exit.txt
run() { # round, list, in place (1/0)
    GPUBLAS3_INPLACE=$3 timeout 150 $B --shapes $2 --reps 5 --peers gpublas3 \
        --csv $R/r$1-inplace$3.csv > $R/r$1-inplace$3.txt 2>&1
    echo "round $1 inplace=$3 exit $?" | tee -a $R/exit.txt
}
run 1 $SHAPES 1
run 1 $SHAPES 0
run 2 $SHORT 0
run 2 $SHORT 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
grep -h "checked against" $R/r*.txt
# side by side: shape, then median GFLOP/s in place on / off per round
for r in 1 2; do
    echo "round $r: routine options shape | in place | packed"
    join -j1 <(grep -E '^[sd]gemm' $R/r$r-inplace1.txt | awk '{print $1"_"$2"_"$3"_"$4, $5}' | sort) \
             <(grep -E '^[sd]gemm' $R/r$r-inplace0.txt | awk '{print $1"_"$2"_"$3"_"$4, $5}' | sort)
done | tee $R/summary.txt
tar czf $OUT/inplace.tgz -C $OUT inplace && rm -rf $R
