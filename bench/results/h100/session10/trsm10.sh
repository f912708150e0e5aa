#!/bin/bash
# Session 10 (session 9's trsm9.sh, run at last; the essential runs first, cut at $CUT s)
# Session 9 (branch trsm9, bench/NOTES.md section 29): TRSM's fixed cost on
# the H100.  One call through bench/gpu_run.sh, on the build of the commit:
#   bash bench/gpu_run.sh "bash bench/results/h100/session9/trsm9.sh"
#   1. the TRSM tests that run fast (ctest: cl_*trsm*, the command counts,
#      the BLAS testers' trsm runs);
#   2. STRSM/DTRSM left lower N non-unit at n = 128, 1024, 4096 with our
#      GEMM at the same sizes: old (trsm_cols=0, trtri's per-column kernel,
#      i.e. the session-8 tree, and the H100's tuned value until this call
#      decides) against new (trsm_cols=8, the default elsewhere),
#      then the new kernel with other block orders (trsm_nb 256, 512,
#      1024, 64) and other column groups (trsm_cols 4, 16); the session-4
#      question (1024: 877 GFLOP/s then, 657 in session 8) by the plan's
#      switches (GPUBLAS3_INPLACE=0, the medium class off, every call
#      packed: at 1024 the blocks' products are 256^3 multiply-adds, the
#      small set's direct_max since session 6; the small set's direct tile
#      4 x 2 per work-item); every side,
#      uplo, trans and diag at 1024, old and new; old and new again (the
#      second round in the other order); trsm_direct=128 with 4 x 2 per
#      work-item and GPUBLAS3_CHAIN=order on the new kernel;
#   3. the commands and the plan of one solve (GPUBLAS3_VERBOSE);
#   4. LAPACK's testers with trsm settings while time is left;
#   5. a table last (GFLOP/s and us per call, median of 5).
# Every result is checked against OpenBLAS by gpublas3-bench before it is
# timed.  Runs are skipped past 470 s.  Writes $OUT/trsm9.tgz.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
B=$BD/bench/gpublas3-bench
R=$OUT/trsm9; CUT=${CUT:-470}; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
export GPUBLAS3_DEVICE=${GPUBLAS3_DEVICE:-gpu}
SIZES=${SIZES:-128,1024,4096}
MID=${MID:-1024}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt 2>&1; date -u >> $R/machine.txt

# 1. the tests (TESTS=0: none, for a dry run elsewhere)
[ "${TESTS:-1}" = 1 ] && (cd $BD && timeout 150 ctest -j4 -R 'cl_.*trsm|bench_trsm_commands|netlib_blas3_[sd]_trsm' --timeout 140 \
    --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' $R/ctest.log)" | tee -a $R/exit.txt

# run NAME CAP ENV... -- ARGS...: one bench run, checked and timed, at most CAP s
run() {
    local name=$1 cap=$2; shift 2
    local env=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do env+=("$1"); shift; done
    shift
    if [ $SECONDS -gt $CUT ]; then echo "$name skipped at ${SECONDS} s" | tee -a $R/exit.txt; return; fi
    env "${env[@]}" timeout $cap $B --peers gpublas3 --reps 5 --sample 1024 "$@" > $R/$name.txt 2>&1
    echo "$name exit $? at ${SECONDS} s: ${env[*]}: $(grep -E 'checked against' $R/$name.txt)" | tee -a $R/exit.txt
}
LLNN="--side L --uplo L --transA N --diag N"
ALL="--side L,R --uplo L,U --transA N,T --diag N,U"
OLD=GPUBLAS3_PARAMS=trsm_cols=0
NEW=GPUBLAS3_PARAMS=trsm_cols=8
# 2. old against new first, then the new kernel's settings
run old 60 $OLD -- --routines gemm,trsm --sizes $SIZES --precisions s,d $LLNN
run new 60 $NEW -- --routines gemm,trsm --sizes $SIZES --precisions s,d $LLNN
run nb256 40 GPUBLAS3_PARAMS=trsm_cols=8,trsm_nb=256 -- --routines trsm --sizes $SIZES --precisions s,d $LLNN
run nb512 40 GPUBLAS3_PARAMS=trsm_cols=8,trsm_nb=512 -- --routines trsm --sizes ${SIZES#*,} --precisions s,d $LLNN
run nb1024 30 GPUBLAS3_PARAMS=trsm_cols=8,trsm_nb=1024 -- --routines trsm --sizes $MID --precisions s,d $LLNN
run nb64 40 GPUBLAS3_PARAMS=trsm_cols=8,trsm_nb=64 -- --routines trsm --sizes $SIZES --precisions s,d $LLNN
run allnew 60 $NEW -- --routines trsm --sizes ${SIZES%%,*},$MID --precisions s,d $ALL
run allold 60 $OLD -- --routines trsm --sizes ${SIZES%%,*},$MID --precisions s,d $ALL
run new2 60 $NEW -- --routines gemm,trsm --sizes $SIZES --precisions s,d $LLNN
run old2 60 $OLD -- --routines gemm,trsm --sizes $SIZES --precisions s,d $LLNN
run cols4 40 GPUBLAS3_PARAMS=trsm_cols=4 -- --routines trsm --sizes $SIZES --precisions s,d $LLNN
run cols16 40 GPUBLAS3_PARAMS=trsm_cols=16 -- --routines trsm --sizes $SIZES --precisions s,d $LLNN
# the session-4 question: the plan's switches at 1024 (and 4096) on the new kernel
run inplace0 40 GPUBLAS3_INPLACE=0 $NEW -- --routines trsm --sizes ${SIZES#*,} --precisions s,d $LLNN
run nomedium 40 "GPUBLAS3_PARAMS=trsm_cols=8;medium:medium_wgs=0" -- --routines trsm --sizes ${SIZES#*,} \
    --precisions s,d $LLNN
run session4 40 GPUBLAS3_INPLACE=0 "GPUBLAS3_PARAMS=trsm_cols=8;medium:medium_wgs=0" -- --routines trsm --sizes ${SIZES#*,} \
    --precisions s,d $LLNN
run packed 40 GPUBLAS3_PLAN=packed $NEW -- --routines trsm --sizes ${SIZES#*,} --precisions s,d $LLNN
run small42 40 "GPUBLAS3_PARAMS=trsm_cols=8;small:direct_wm=4,direct_wn=2" -- --routines trsm --sizes $SIZES \
    --precisions s,d $LLNN
# every side, uplo, trans, diag at 1024 (and 128), old and new
# round 2, the other order
run direct42 40 GPUBLAS3_PARAMS=trsm_cols=8,trsm_direct=128,direct_wm=4,direct_wn=2 -- --routines trsm --sizes $SIZES \
    --precisions s,d $LLNN
run order 40 GPUBLAS3_CHAIN=order $NEW -- --routines trsm --sizes $SIZES --precisions s,d $LLNN

# 3. the commands of one solve, and its plan
for c in "old:$OLD" "new:$NEW" "nb256:GPUBLAS3_PARAMS=trsm_cols=8,trsm_nb=256" \
    "nb512:GPUBLAS3_PARAMS=trsm_cols=8,trsm_nb=512"; do
    [ $SECONDS -gt 500 ] && break
    for n in ${SIZES%%,*} $MID ${SIZES##*,}; do
        env GPUBLAS3_VERBOSE=1 "${c#*:}" timeout 30 $B --peers gpublas3 --reps 1 --routines trsm --sizes $n \
            --precisions s,d $LLNN --probe > $R/verbose-${c%%:*}-$n.txt 2>&1
        grep "gpublas3: trsm:" $R/verbose-${c%%:*}-$n.txt | sed "s/^/${c%%:*} /" >> $R/commands.txt
    done
done

# 4. LAPACK's testers with trsm settings
if [ "${TESTS:-1}" = 1 ] && [ $SECONDS -lt 430 ]; then
    (cd $BD && timeout $((520 - SECONDS)) ctest -j2 -R 'netlib_lapack_[sd]_trsm_direct' --output-on-failure) \
        > $R/ctest-lapack.log 2>&1
    echo "ctest lapack exit $? at ${SECONDS} s: $(grep -E 'tests passed|tests failed' $R/ctest-lapack.log)" |
        tee -a $R/exit.txt
fi

# 5. the table: GFLOP/s and us per call (trsm's useful flops n^3, gemm's 2 n^3)
{
    echo "---- trsm9 at ${SECONDS} s"
    cat $R/exit.txt
    cat $R/commands.txt 2>/dev/null
    for f in $R/*.txt; do
        name=$(basename $f .txt)
        awk -v c=$name '$1 ~ /^[sd](gemm|trsm)$/ && $2 == "col" && $4 ~ /^[0-9]+$/ {
            n = $4; f = ($1 ~ /gemm/ ? 2 : 1) * n * n * n
            printf "%-9s %-6s %-5s %5s %10s %10.0f\n", c, $1, $3, n, $5, ($5 > 0 ? f / $5 / 1e3 : 0) }' $f
    done
} > $R/table.txt
cat $R/table.txt
grep -E "FAIL|Failed|tests passed|tests failed" $R/ctest.log | head -20
tar czf $OUT/trsm9.tgz -C $OUT trsm9 && rm -rf $R
