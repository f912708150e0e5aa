#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The drop-ins' price of a real TRSM in leaves (routines/dropin/crossover.c):
what each solve took beyond the device row's GEMM model, fitted per
precision as

  fixed + ceil(order / 32) x per block + order x rhs / 1e6 x per million
  elements of B + order^2 x rhs / 1e9 x per GFLOP

by least squares on relative errors, no constant negative.

  bench/trsm_price.py [--fixed US --gflops G] [--check CSV...] CSV...

Each CSV is gpublas3-bench's; its TRSM rows are the points (the device's
rows must have solved in leaves), the GEMM model's fixed cost and rate
default to the H100 row's (30 us, 45000 GFLOP/s).  --check CSVs are not
fitted, only priced.  Or, with --measure, the files are crossover_measure's
outputs (each run's own GEMM model; their points pooled).  The refit of
2026-11-27 (docs/performance.md, TRSM):

  bench/trsm_price.py final-1.csv final-2.csv lu-leaf1024.csv chol-leaf1024.csv \\
      --check all-leaf1024.csv

from the H100 runs of that day (in git's history of bench/results/h100/)."""
import argparse
import csv
import itertools
import math
import re


def features(order, rhs):
    return [1, math.ceil(order / 32), order * rhs / 1e6, order * order * rhs / 1e9]


def bench_points(path, fixed, gflops):
    """(precision, order, rhs, extra us, time us) of each TRSM row."""
    for r in csv.DictReader(open(path)):
        if r['routine'] != 'trsm':
            continue
        m, n, t = int(r['m']), int(r['n']), float(r['median_s']) * 1e6
        left = 'side=L' in r['options']
        order, rhs = (m, n) if left else (n, m)
        yield r['precision'], order, rhs, t - fixed - order * order * rhs / (gflops * 1e3), t


def measure_points(path):
    """The same from crossover_measure's TRSM tables (ZTRSM's left out)."""
    prec = None
    for line in open(path):
        m = re.match(r'([SDZ])TRSM beyond', line)
        if m:
            prec = m.group(1).lower()
            continue
        f = line.split()
        if prec in ('s', 'd') and len(f) >= 6 and f[0].isdigit():
            dev, gemm = float(f[2]) * 1e6, float(f[3]) * 1e6
            yield prec, int(f[0]), int(f[1]), dev - gemm, dev
        elif not f:
            prec = None


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if m[c][c] == 0:
            return None
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(points, weight):
    """Least squares on errors relative to weight(point), over every subset
    of the constants (the others 0); the best with none negative."""
    rows = [[x / weight(p) for x in features(p[1], p[2])] for p in points]
    ys = [p[3] / weight(p) for p in points]
    best = None
    for k in range(1, 5):
        for use in itertools.combinations(range(4), k):
            a = [[sum(r[i] * r[j] for r in rows) for j in use] for i in use]
            b = [sum(r[i] * y for r, y in zip(rows, ys)) for i in use]
            c = solve(a, b)
            if c is None or min(c) < 0:
                continue
            full = [0.0] * 4
            for i, v in zip(use, c):
                full[i] = v
            res = sum((sum(x * v for x, v in zip(r, full)) - y) ** 2 for r, y in zip(rows, ys))
            if best is None or res < best[0]:
                best = (res, full)
    return best[1]


def price(c, p):
    return sum(x * v for x, v in zip(features(p[1], p[2]), c))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('files', nargs='+')
    ap.add_argument('--check', nargs='*', default=[])
    ap.add_argument('--fixed', type=float, default=30)
    ap.add_argument('--gflops', type=float, default=45000)
    ap.add_argument('--measure', action='store_true', help="the files are crossover_measure's outputs")
    a = ap.parse_args()
    if a.measure:
        pts = [p for f in a.files for p in measure_points(f)]
        weight = lambda p: p[4]  # crossover_measure's: relative to the device's time
    else:
        pts = [p for f in a.files for p in bench_points(f, a.fixed, a.gflops)]
        weight = lambda p: p[3]  # relative to the extra time itself
    checks = [p for f in a.check for p in bench_points(f, a.fixed, a.gflops)]
    for prec in 'sd':
        mine = [p for p in pts if p[0] == prec]
        if not mine:
            continue
        c = fit(mine, weight)
        print('%s: fixed %.3g us, %.3g us per block of 32, %.3g us per million elements, %.3g us per GFLOP'
              % (prec.upper(), *c))
        print('  order    rhs   extra us   model us   error')
        worst = 0
        for p in mine:
            e = (price(c, p) - p[3]) / weight(p)
            worst = max(worst, abs(e))
            print('  %5d %6d %10.0f %10.0f %+6.1f %%' % (p[1], p[2], p[3], price(c, p), 100 * e))
        print('  worst %.1f %% of %d points' % (100 * worst, len(mine)))
        mine = [p for p in checks if p[0] == prec]
        if mine:
            e = [(price(c, p) - p[3]) / weight(p) for p in mine]
            print('  checked, not fitted: %d points, %+.0f to %+.0f %%' % (len(e), 100 * min(e), 100 * max(e)))


if __name__ == '__main__':
    main()
