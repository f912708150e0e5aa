#!/bin/bash
# Session 19, H100, call 8 (bench/NOTES.md section 43), through bench/gpu_run.sh:
#   bash bench/gpu_run.sh "bash bench/results/h100/session19/call8.sh"
# A band's split-K launch cutting each tile's own k-range into equal parts,
# and a band counting half its tiles when the slices are chosen
# (.device-carry/build) against the tree before it (.device-carry/old):
# 1. each step's device time, TRMM 1024 and 1536, every side and triangle;
# 2. wall times of GEMM, TRMM (every side and triangle) and TRSM at
#    1024-4096, the builds alternating, three rounds.
set -u
OUT=${OUT:-/tmp/out}
R=/tmp/call8; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/call8.tgz -C /tmp call8; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; date -u; nproc; } > $R/machine.txt
L0=$LD_LIBRARY_PATH
bench() {  # bench BUILD NAME ARGS...: one run of BUILD's bench with its own library and cache
    local b=$1 name=$2; shift 2
    local BD=/work/main/.device-carry/$b
    GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache LD_LIBRARY_PATH=$BD:$L0 timeout 120 $BD/bench/gpublas3-bench "$@" \
        > $R/$name-$b-$SECONDS.txt 2>&1
    echo "$name $b exit $? at ${SECONDS} s" | tee -a $R/exit.txt
}
for b in old build; do
    GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 bench $b trace --routines trmm --sizes 1024,1536 \
        --side L,R --uplo U,L --precisions s,d --peers gpublas3 --reps 3
done
pack
for round in 1 2 3; do
    [ $SECONDS -gt 400 ] && break
    for b in old build; do
        bench $b w --routines gemm,trmm,trsm --sizes 1024,1536,2048,4096 --side L,R --uplo U,L --precisions s,d \
            --peers gpublas3 --reps 7 --sample 256 --csv $R/w-$b-$round.csv
    done
    pack
done
grep -h "checked against\|FAIL\|ERROR\|rror" $R/*.txt | sort | uniq -c | head -20
pack
