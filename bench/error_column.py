#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every row of a gpublas3-bench CSV that passed its check carries a finite
max_rel_err below 1e-3 (the judge's worst error over its bound):

  bench/error_column.py run.csv"""
import csv
import math
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r["status"] == "ok"
       and not (math.isfinite(float(r["max_rel_err"])) and float(r["max_rel_err"]) < 1e-3)]
for r in bad:
    print("no finite error:", r["peer"], r["routine"], r["precision"], r["options"], r["max_rel_err"])
checked = sum(r["status"] == "ok" for r in rows)
print(f"{checked} checked rows, {len(bad)} without a finite error")
sys.exit(1 if bad or not checked else 0)
