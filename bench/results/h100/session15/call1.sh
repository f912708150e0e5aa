#!/bin/bash
# Session 15, H100, call 1 (bench/NOTES.md section 39), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session15/call1.sh"
# 1. GEMM with async (staged tiles by cp.async, a ring of 2 or 3 buffers)
#    on every set: test_gemm under the three ctest cases (cl_gemm_async*),
#    and cl_gemm_cpref_* beside them;
# 2. async 0 / 3 / 2 on every set (0 and 3 twice, alternating), S and D,
#    squares, updates and 128-wide outputs, gpublas3 alone, median of 5,
#    every result checked (leading 256 columns);
# 3. the host between a packed call's enqueues: GPUBLAS3_TRACE on S 512^3,
#    S 1024^3, D 4096^2x64, and their wall time with and without the
#    profiling queue the trace needs;
# 4. cpref 4 on the rows that have 0 (S small, skinny, deepk; D small,
#    skinny, deepk, medium) on their shapes, against 0, two rounds.
set -u
OUT=${OUT:-/tmp/out}
BD=${BD:-/work/main/.device-carry/build}
R=/tmp/call1; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call1.tgz -C /tmp call1; }
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
B=$BD/bench/gpublas3-bench
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; } > $R/machine.txt

(cd $BD && timeout 200 ctest -j4 -R "cl_gemm_async|cl_gemm_cpref" --output-on-failure --timeout 190) > $R/tests.log 2>&1
echo "tests exit $? at ${SECONDS} s: $(grep 'tests passed' $R/tests.log)" | tee -a $R/exit.txt
grep -c "ignored" $R/tests.log >> $R/exit.txt
pack

SH="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x64,4096x4096x256,8192x8192x256,8192x8192x256:NT,16384x128x4096,128x8192x8192:TN"
for a in 0 3 2 0 3; do
    GPUBLAS3_PARAMS="async=$a" timeout 100 $B --shapes $SH --precisions s,d --peers gpublas3 --reps 5 --sample 256 \
        --csv $R/async-$a-$SECONDS.csv > $R/async-$a-$SECONDS.txt 2>&1
    echo "async=$a exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    pack
done

TR="512x512x512,1024x1024x1024,4096x4096x64"
for p in s d; do
    GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 timeout 60 $B --shapes $TR --precisions $p \
        --peers gpublas3 --reps 3 > $R/trace-$p.txt 2>&1
    echo "trace $p exit $? at ${SECONDS} s" | tee -a $R/exit.txt
done
for round in 1 2; do
    for prof in 0 1; do
        GPUBLAS3_BENCH_PROFILE=$prof timeout 60 $B --shapes $TR,64x64x64,256x256x256 --precisions s,d --peers gpublas3 \
            --reps 21 --csv $R/prof$prof-$round.csv > $R/prof$prof-$round.txt 2>&1
        echo "profile=$prof round $round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
    done
done
pack

CP="256x256x256,512x512x512,1024x1024x1024,1536x1536x1536,8192x64x8192,64x8192x8192,64x64x65536,128x128x32768:TN,512x512x8192:TN"
for round in 1 2; do
    for c in 0 4; do
        GPUBLAS3_PARAMS="small:cpref=$c;skinny:cpref=$c;deepk:cpref=$c;d:medium:cpref=$c" timeout 80 $B --shapes $CP \
            --precisions s,d --peers gpublas3 --reps 7 --sample 256 --csv $R/cpref-$c-$round.csv > $R/cpref-$c-$round.txt 2>&1
        echo "cpref=$c round $round exit $? at ${SECONDS} s" | tee -a $R/exit.txt
        pack
    done
done
grep -h "checked against\|FAIL\|ERROR" $R/*.txt | sort | uniq -c | head -20
pack
