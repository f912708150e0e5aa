#!/bin/bash
# Session 8, H100 call 2 (2026-11-23): why D updates run at half the
# square's rate.  Counted: a 64x128 work-group's update of C (64 KB read,
# 64 KB written) takes ~6 us at one SM's share of the bandwidth against
# ~9 us of arithmetic at K = 256, so unless a second work-group per SM
# computes meanwhile, K = 256 runs at ~60 % of K = 8192's rate.  NVIDIA's
# compiler report (-cl-nv-verbose through GPUBLAS3_CL_OPTIONS, printed by
# GPUBLAS3_BUILD_LOG) gives the registers, hence work-groups per SM; then
# the same D shapes with the register count capped (-cl-nv-maxrregcount).
set -u
R=$OUT/s8c2; mkdir -p $R
B=/work/main/.device-carry/build/bench/gpublas3-bench
SH=4096x4096x64,4096x4096x256,8192x8192x128,8192x8192x256,16384x16384x256,1024x1024x1024,2048x2048x2048,8192x8192x8192
export GPUBLAS3_BUILD_LOG=1
i=0
for o in "-cl-nv-verbose" "-cl-nv-verbose -cl-nv-maxrregcount=128" "-cl-nv-verbose -cl-nv-maxrregcount=96" "-cl-nv-verbose -cl-nv-maxrregcount=80" "-cl-nv-verbose"; do
  i=$((i+1))
  echo "$o" > $R/v$i.opt
  GPUBLAS3_CL_OPTIONS="$o" timeout 100 $B --shapes $SH --precisions d --reps 5 --sample 512 --peers gpublas3 \
      --csv $R/v$i.csv > $R/v$i.txt 2>&1
  echo "v$i ($o) exit $?" | tee -a $R/exit.txt
done
# S: the registers of every set, and the large set capped at 128 (2 groups per SM for sure)
for o in "-cl-nv-verbose" "-cl-nv-verbose -cl-nv-maxrregcount=128"; do
  i=$((i+1)); echo "$o" > $R/v$i.opt
  GPUBLAS3_CL_OPTIONS="$o" timeout 100 $B --shapes 4096x4096x64,4096x4096x256,8192x8192x256,1024x1024x1024,8192x64x8192,256x256x16384 \
      --precisions s --reps 5 --sample 512 --peers gpublas3 --csv $R/v$i.csv > $R/v$i.txt 2>&1
  echo "v$i ($o) exit $?" | tee -a $R/exit.txt
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/machine.txt; date -u >> $R/machine.txt
grep -hE "checked|FAIL" $R/*.txt | sort | uniq -c
tar czf $OUT/s8c2.tgz -C $OUT s8c2 && rm -rf $R
