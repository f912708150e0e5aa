#!/bin/bash
# Session 7, H100: the test suite's GPU part on the final tree, in two
# device calls (one script: the part is its argument), the longest tests
# first (ctest's cost data).  Through bench/gpu_run.sh:
#   part1: everything but Oclgrind, the sanitizer rebuilds, the downstream
#          packages, MPICH and the real LAPACK testers, at -j9; then
#          LAPACK's suite under the crossover model (liblapack-test-*) alone
#          at -j3 (under -j12 load they pass their 300 s limit: session 6)
#   part2: the real LAPACK testers, every call on the device
#          (netlib_lapack_*), at -j12
set -u
BD=/work/main/.device-carry/build
R=$OUT/suite-$1; mkdir -p $R $BD/Testing/Temporary
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
run() {  # run NAME JOBS LIMIT CTEST-SELECTION...: one ctest run, its summary
    local name=$1 jobs=$2 limit=$3; shift 3
    local start=$(date +%s)
    (cd $BD && timeout $limit ctest -j$jobs --timeout $((limit - 10)) "$@" --output-on-failure) > $R/$name.log 2>&1
    echo "$name: ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/$name.log)"
    grep -E "^\s+[0-9]+ - " $R/$name.log
    grep -oE "Start +[0-9]+: \S+" $R/$name.log | awk '{print $3}' | sort > /tmp/started
    grep -oE "Test +#[0-9]+: \S+" $R/$name.log | awk '{print $3}' | sort > /tmp/done
    echo "unfinished: $(comm -23 /tmp/started /tmp/done | tr '\n' ' ')"
    grep -E "Test +#" $R/$name.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/' | sort -g -r | head -8
    cp $BD/Testing/Temporary/LastTest.log $R/$name-LastTest.log 2>/dev/null
}
case $1 in
part1)
    printf '%s\n' "rel_test_memlimits 1 380" "netlib_blas3_c_panels 1 59" "netlib_blas3_z_panels 1 59" \
        "host_env_cpu 1 60" "host_env_fail_over 1 60" "host_env_fail_over_reading 1 60" \
        "host_crossover_fallback 1 53" "host_env_fail 1 42" "host_env_fail_packing 1 42" "---" \
        > $BD/Testing/Temporary/CTestCostData.txt
    run main 9 470 -LE "oclgrind|sanitizers|scalapack|mpich" -E "^downstream_|liblapack-test|netlib_lapack_"
    run liblapack 3 120 -R "liblapack-test"
    grep -hE "seconds|ratio" $R/liblapack-LastTest.log | head -8
    ;;
part2)
    printf '%s\n' "netlib_lapack_z_ls_m50 1 200" "netlib_lapack_c_ls_m50 1 199" "netlib_lapack_z_ls_m0_10 1 198" \
        "netlib_lapack_c_ls_m0_10 1 197" "netlib_lapack_d_trsm_direct 1 150" "netlib_lapack_s_trsm_direct 1 149" \
        "netlib_lapack_d 1 148" "netlib_lapack_s 1 147" "---" > $BD/Testing/Temporary/CTestCostData.txt
    run lapack 12 560 -R "netlib_lapack_" -LE "oclgrind|sanitizers|scalapack|mpich"
    ;;
esac
tar czf $OUT/suite-$1.tgz -C $OUT suite-$1 && rm -rf $R
