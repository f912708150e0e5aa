#!/bin/bash
# Session 7, H100: one call on both sides (issue 12; routines/dropin/share.c).
# Reference LAPACK with gpublas3 preloaded, the split on (default) and off
# (GPUBLAS3_SPLIT=0), next to reference LAPACK alone and OpenBLAS's own
# LAPACK in the same run (NVBLAS at 8192 only, last), then two ways of sharing
# the cores at 8192 (the host part on 12 OpenBLAS threads; 8 copy threads
# for the device part) and one split SGETRF 8192 verbose.  Run from the
# repository root with the build carried:
#   bash bench/gpu_run.sh "bash bench/results/h100/session7/split_call.sh"
# About 5 minutes; each part under its own timeout (465 s in all at most).
# Writes $OUT/split.tgz (folder split/: one lapack_e2e.sh output per part,
# commands.log with every table).
set -u
BD=/work/main/.device-carry/build
R=$OUT/split; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd /work/main
e2e() {  # e2e NAME TIMEOUT ROUTINES SIZES REPS [VAR=VALUE...]: one lapack_e2e.sh run into $R/NAME
  local name=$1 limit=$2 routines=$3 sizes=$4 reps=$5; shift 5
  echo "== $name: $routines at $sizes, best of $reps, ${CONFIGS:-all}; $*"
  env DEBROOT=/tmp/debs VERBOSE_N=${VERBOSE_N:-0} "$@" timeout $limit sh bench/lapack_e2e.sh $BD $R/$name \
    $routines $sizes $reps > $R/$name.log 2>&1
  echo "exit $?"; cat $R/$name/table.txt 2>/dev/null
}
S8=sgetrf,spotrf,dgetrf,dpotrf
# 8192: everything in one run, the split on (default)
CONFIGS="reference openblas gpublas3" e2e n8192 110 $S8 8192 2
# 8192: gpublas3 with the split off
CONFIGS=gpublas3 e2e n8192_off 45 $S8 8192 2 GPUBLAS3_SPLIT=0
# 8192, single: who owns the cores
CONFIGS=gpublas3 e2e n8192_host12 25 sgetrf,spotrf 8192 2 GPUBLAS3_SPLIT_HOST_THREADS=12
CONFIGS=gpublas3 e2e n8192_copy8 25 sgetrf,spotrf 8192 2 GPUBLAS3_COPY_THREADS=8
# one split SGETRF 8192, verbose (gpublas3.log.gz: where each call went, the shares, each side's time)
CONFIGS=gpublas3 VERBOSE_N=8192 e2e n8192_verbose 25 sgetrf 8192 1
# 16384, single: on, off, reference, OpenBLAS's LAPACK
CONFIGS="gpublas3 openblas reference" e2e n16384 130 sgetrf,spotrf 16384 1
CONFIGS=gpublas3 e2e n16384_off 45 sgetrf,spotrf 16384 1 GPUBLAS3_SPLIT=0
# NVBLAS at 8192, if the time holds
CONFIGS=nvblas e2e n8192_nvblas 60 $S8 8192 2
echo "== where the calls went at 8192 (verbose run)"
zcat $R/n8192_verbose/gpublas3.log.gz 2>/dev/null | grep -c ' split by ' | sed 's/^/split calls: /'
zcat $R/n8192_verbose/gpublas3.log.gz 2>/dev/null | grep -m3 ' split done in '
tar czf $OUT/split.tgz -C $OUT split && rm -rf $R
