#!/bin/bash
# Session 6, H100 call 1 (2026-11-23): (1) bisect test_pool's context hang:
# the out-of-order gated case with parts left out (TEST_POOL_OMIT: 1 the
# driver control, 2 the warm-up, 4 call Y, 8 X's gate) and one library call
# gated / not, each in its own process under a time limit (the hang is at
# the final clReleaseContext: exit 1 after 20 s, or 124); (2) the link
# probe (how a malloc'd array reaches the device, each way OpenCL offers);
# (3) reference LAPACK at n = 2048 with and without gpublas3, twice, to see
# the host rates the crossover model times in each process.
set -u
BD=/work/main/.device-carry/build
R=$OUT/c1; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd $BD/tests/reliability
# one process first fills the program cache, then the rest side by side
timeout 90 ./test_pool ooo_single_ungated > $R/pool_single_ungated.log 2>&1; echo "single_ungated exit $?" | tee $R/pool.txt
timeout 60 ./test_pool ooo_single_gated > $R/pool_single_gated.log 2>&1 &
for o in 0 1 2 4 8 3 5 7 12 15; do
    TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
done
wait
echo "single_gated: $(tail -2 $R/pool_single_gated.log | tr '\n' ' ')" | tee -a $R/pool.txt
for o in 0 1 2 4 8 3 5 7 12 15; do
    echo "omit $o: $(grep -c 'did not return' $R/pool_omit$o.log) hang; $(tail -1 $R/pool_omit$o.log)" | tee -a $R/pool.txt
done
cd /work/main
$BD/bench/gpublas3-link-probe 512 3 > $R/link_probe.txt 2>&1; cat $R/link_probe.txt
uptime > $R/load.txt; top -bn1 | head -15 >> $R/load.txt
for pass in 1 2; do
    DEBROOT=/tmp/debs CONFIGS="reference gpublas3" sh bench/lapack_e2e.sh $BD $R/e2e$pass "" 2048 2 > $R/e2e$pass.log 2>&1
    zcat $R/e2e$pass/gpublas3.log.gz | grep -o '[0-9]* GFLOP/s on the host' | sort | uniq -c > $R/e2e$pass/host_rates.txt
    cat $R/e2e$pass/table.txt $R/e2e$pass/host_rates.txt
done
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
