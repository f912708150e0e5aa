#!/bin/bash
# Session 7, H100 call 14 (2026-11-23), the final tree (the direct path's
# eventless launch after call 10): the suite's first part again
# (suite.sh part1); the LAPACK testers (part 2, call 11) do not take the
# direct path's quiet case (the drop-ins take every sub-call's event).
set -u
bash bench/results/h100/session7/suite.sh part1
