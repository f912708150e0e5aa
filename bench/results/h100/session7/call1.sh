#!/bin/bash
# Session 7, H100 call 1 (2026-11-23): test_pool's context hang, round
# eight: the library's own calls X and Y changed under it by the shim
# (TEST_POOL_OMIT bits: 256 no event released until both completed, 512
# the pool's status queries answered "queued" without the driver, 1024
# clFinish on every queue before Teardown, 2048 X's and Y's OpenCL calls
# printed), each variant in its own process, all at once; the context's
# reference count before its release; and the threads' stacks of the
# plain case's process while its clReleaseContext hangs (eu-stack, carried
# as .debs).
set -u
BD=/work/main/.device-carry/build
R=$OUT/s7c1; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
EU="/tmp/debs/usr/bin/eu-stack"
cd $BD/tests/reliability
stacks() { # $1 omit value, $2 pid, $3 log: stacks 6 s after the release began
    for i in $(seq 60); do
        grep -q "release the context" $3 2>/dev/null && break
        sleep 0.5
    done
    sleep 6
    $EU -p $2 > $R/stack$1.txt 2>&1 || echo "eu-stack failed" >> $R/stack$1.txt
}
for o in 0 256 512 1024 768 1792 2048 272 528 2304; do
    TEST_POOL_OMIT=$o timeout 60 ./test_pool gated_ooo > $R/pool_omit$o.log 2>&1 &
    pid=$!
    case $o in 0|1792) stacks $o $pid $R/pool_omit$o.log & ;; esac
done
wait
for f in $R/pool_*.log; do
    echo "$(basename $f .log): $(grep -c 'did not return' $f) hang; $(grep -h 'reference count' $f); $(tail -1 $f)"
done | tee $R/pool.txt
nvidia-smi --query-gpu=driver_version,name --format=csv,noheader >> $R/pool.txt
tar czf $OUT/s7c1.tgz -C $OUT s7c1 && rm -rf $R
