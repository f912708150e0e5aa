#!/bin/bash
# Session 7, H100: the split's second look (issue 12; NOTES 21), on the
# final tree, whose split learns a size's rates from its second split
# call on (the first run's first cut call compiled and kept a size range
# uncut): LAPACK end to end at 8192, gpublas3 with the split on
# (GPUBLAS3_SPLIT=1) and off (default) next to OpenBLAS's own LAPACK, best
# of 2; one verbose DPOTRF with the split on (the routine it slowed).
# Writes $OUT/split2.tgz.
set -u
BD=/work/main/.device-carry/build
R=$OUT/split2; mkdir -p $R
export GPUBLAS3_CACHE_DIR=$BD/gpublas3-cache
cd /work/main
e2e() {  # e2e NAME TIMEOUT ROUTINES SIZES REPS [VAR=VALUE...]
  local name=$1 limit=$2 routines=$3 sizes=$4 reps=$5; shift 5
  echo "== $name: $routines at $sizes, best of $reps, ${CONFIGS:-all}; $*"
  env DEBROOT=/tmp/debs VERBOSE_N=${VERBOSE_N:-0} "$@" timeout $limit sh bench/lapack_e2e.sh $BD $R/$name \
    $routines $sizes $reps > $R/$name.log 2>&1
  echo "exit $?"; cat $R/$name/table.txt 2>/dev/null
}
S8=sgetrf,spotrf,dgetrf,dpotrf
CONFIGS="openblas gpublas3" e2e off 70 $S8 8192 2
CONFIGS=gpublas3 e2e on 45 $S8 8192 2 GPUBLAS3_SPLIT=1
CONFIGS=gpublas3 e2e off2 45 $S8 8192 2
CONFIGS=gpublas3 e2e on2 45 $S8 8192 2 GPUBLAS3_SPLIT=1
CONFIGS=gpublas3 VERBOSE_N=8192 e2e dpotrf_on_verbose 30 dpotrf 8192 1 GPUBLAS3_SPLIT=1
zcat $R/dpotrf_on_verbose/gpublas3.log.gz 2>/dev/null | grep ' split done in ' | head -12
zcat $R/dpotrf_on_verbose/gpublas3.log.gz 2>/dev/null | grep -c ' split by ' | sed 's/^/split calls: /'
tar czf $OUT/split2.tgz -C $OUT split2 && rm -rf $R
