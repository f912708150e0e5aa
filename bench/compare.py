#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares gpublas3's own rows of two sets of gpublas3-bench CSVs (an older
build against a newer one, measured in the same run): per case the ratio of
the medians (newer / older time, below 1 is faster), their geometric mean,
and the cases that moved most.  Each side may be several CSVs (rounds); a
case's time is the least of its rounds' medians.

    python3 bench/compare.py --before a1.csv a2.csv --after b1.csv b2.csv
"""
import argparse
import csv
import math


def best(paths):
    t = {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["peer"] != "gpublas3" or r["status"] != "ok":
                    continue
                key = (r["precision"], r["routine"], r["options"], r.get("shape") or r["n"])
                t[key] = min(t.get(key, math.inf), float(r["median_s"]))
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", nargs="+", required=True)
    ap.add_argument("--after", nargs="+", required=True)
    ap.add_argument("--worst", type=int, default=8)
    a = ap.parse_args()
    before, after = best(a.before), best(a.after)
    common = sorted(set(before) & set(after))
    if not common:
        raise SystemExit("no case in both sets")
    ratio = {k: after[k] / before[k] for k in common}
    geo = math.exp(sum(math.log(v) for v in ratio.values()) / len(ratio))
    print(f"{len(common)} cases, time after/before: geomean {geo:.3f}, "
          f"min {min(ratio.values()):.3f}, max {max(ratio.values()):.3f}")
    print(f"only before: {len(set(before) - set(after))}, only after: {len(set(after) - set(before))}")
    for k in sorted(common, key=ratio.get, reverse=True)[:a.worst]:
        print(f"  {ratio[k]:.3f}  {' '.join(k)}  {before[k]*1e6:.1f} -> {after[k]*1e6:.1f} us")


if __name__ == "__main__":
    main()
