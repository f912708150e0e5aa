#!/bin/bash
# Session 6, H100 call 12 (2026-11-23): the real LAPACK testers on the
# merged tree (every call on the device: netlib_lapack_*; LAPACK's suite
# under the crossover model: liblapack-test-*), at -j12, the longest first.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c12; mkdir -p $R $BD/Testing/Temporary
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
printf '%s\n' "netlib_lapack_z_ls_m50 1 200" "netlib_lapack_c_ls_m50 1 199" "netlib_lapack_z_ls_m0_10 1 198" \
    "netlib_lapack_c_ls_m0_10 1 197" "netlib_lapack_d_trsm_direct 1 150" "netlib_lapack_s_trsm_direct 1 149" \
    "netlib_lapack_d 1 148" "netlib_lapack_s 1 147" "---" > $BD/Testing/Temporary/CTestCostData.txt
start=$(date +%s)
(cd $BD && timeout 540 ctest -j12 --timeout 530 -R "netlib_lapack_|liblapack-test" \
    -LE "oclgrind|sanitizers|scalapack|mpich" --output-on-failure) > $R/ctest.log 2>&1
echo "ctest exit $? after $(( $(date +%s) - start )) s: $(grep -E 'tests passed' $R/ctest.log)"
grep -E "^\s+[0-9]+ - " $R/ctest.log
grep -oE "Start +[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/started
grep -oE "Test +#[0-9]+: \S+" $R/ctest.log | awk '{print $3}' | sort > /tmp/done
echo "unfinished: $(comm -23 /tmp/started /tmp/done | tr '\n' ' ')"
grep -E "Test +#" $R/ctest.log | sed -E 's/.* Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec/\2 \1/' | sort -g -r
cp $BD/Testing/Temporary/LastTest.log $R/ 2>/dev/null
grep -E "xlintst.*seconds|ratio" $R/LastTest.log | head -12
tar czf $OUT/c12.tgz -C $OUT c12 && rm -rf $R
