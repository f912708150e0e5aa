#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares gpublas3's own rows of two sets of gpublas3-bench CSVs (an older
build against a newer one, measured in the same run): per case the ratio of
the medians (newer / older time, below 1 is faster), their geometric mean,
overall and per suite group (per routine for squares), and the cases that
moved most.  Each side may be several CSVs (rounds); a case's time is the
least of its rounds' medians.

    python3 bench/compare.py --before a1.csv a2.csv --after b1.csv b2.csv
"""
import argparse
import csv
import math


def best(paths):
    """{case: least median} and {case: its group, or routine}."""
    t, part = {}, {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["peer"] != "gpublas3" or r["status"] != "ok":
                    continue
                key = (r["precision"], r["routine"], r["options"], r.get("shape") or r["n"])
                t[key] = min(t.get(key, math.inf), float(r["median_s"]))
                part[key] = r.get("group") or r["routine"]
    return t, part


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", nargs="+", required=True)
    ap.add_argument("--after", nargs="+", required=True)
    ap.add_argument("--worst", type=int, default=8)
    a = ap.parse_args()
    (before, _), (after, part) = best(a.before), best(a.after)
    common = sorted(set(before) & set(after))
    if not common:
        raise SystemExit("no case in both sets")
    ratio = {k: after[k] / before[k] for k in common}
    print(f"{len(common)} cases, time after/before: geomean {geomean(ratio.values()):.3f}, "
          f"min {min(ratio.values()):.3f}, max {max(ratio.values()):.3f}")
    print(f"only before: {len(set(before) - set(after))}, only after: {len(set(after) - set(before))}")
    parts = {}
    for k in common:
        parts.setdefault(part[k], []).append(ratio[k])
    print("geomean per group (routine for squares): " +
          ", ".join(f"{p} {geomean(v):.3f} ({len(v)})" for p, v in parts.items()))
    for k in sorted(common, key=ratio.get, reverse=True)[:a.worst]:
        print(f"  {ratio[k]:.3f}  {' '.join(k)}  {before[k]*1e6:.1f} -> {after[k]*1e6:.1f} us")


if __name__ == "__main__":
    main()
