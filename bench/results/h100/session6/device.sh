# Sourced by session 6's device scripts: outside bench/gpu_run.sh the
# script runs itself through it (ICD, carried .debs, GPUBLAS3_DEVICE=gpu)
# and shows the end of the log; inside, BUILD is the carried build of
# branch plan6 (.device-carry/build), which must have --probe.
OUT=${OUT:-/tmp/out}
if [ -z "${GPUBLAS3_DEVICE:-}" ]; then
    bash bench/gpu_run.sh "bash $0"
    tail -n 70 "$OUT/commands.log"
    exit 0
fi
BUILD=$(pwd)/.device-carry/build
if ! "$BUILD/bench/gpublas3-bench" --help | grep -q -- --probe; then
    echo "the carried build has no --probe: build branch plan6 into .device-carry/build"
    exit 1
fi
