#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The plan sweep: each shape of a suite timed under every choice the plan
# could make.  bench/plan_sweep.py says what and how; bench/README.md how to run it.
exec python3 "$(dirname "$0")/plan_sweep.py" "$@"
