#!/usr/bin/env python3
"""Median time of each step (copy kernel, GEMM kernel) of the calls in a PoCL
trace, from a run of one routine and precision:

  GPUBLAS3_BENCH_PROFILE=1 POCL_TRACING=text POCL_TRACING_OPT=trace.log \\
      gpublas3-bench --routines trmm --precisions s --sizes 1024 --peers gpublas3
  bench/steps.py trace.log

A call is the run of kernels between two buffer transfers; calls with the
same sequence of kernels are grouped (the checked call and the timed ones)."""
import statistics
import sys


def steps(path):
    started, done = {}, []
    for line in open(path):
        f = [x.strip() for x in line.split('|')]
        if len(f) < 6 or not f[1].startswith('EV'):
            continue
        name = f[-1][5:] if f[-1].startswith('name=') else f[4]
        if f[5] == 'running':
            started[f[1]] = int(f[0])
        elif f[5] == 'complete' and f[1] in started:
            done.append((started[f[1]], int(f[0]), name))
    calls, cur = [], []
    for t0, t1, name in sorted(done):
        if name in ('write_buffer', 'read_buffer', 'migrate_mem_objects'):
            if cur:
                calls.append(cur)
            cur = []
        else:
            cur.append((name, (t1 - t0) / 1e6))
    if cur:
        calls.append(cur)
    groups = {}
    for c in calls:
        groups.setdefault(tuple(n for n, _ in c), []).append([t for _, t in c])
    return groups


if __name__ == '__main__':
    if len(sys.argv) != 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    for names, runs in steps(sys.argv[1]).items():
        med = [statistics.median(t) for t in zip(*runs)]
        if not any(med):
            sys.exit('no kernel times: run the bench with GPUBLAS3_BENCH_PROFILE=1')
        print('%d calls: %s  total %.2f ms' % (len(runs), '  '.join('%s %.2f' % nm for nm in zip(names, med)), sum(med)))
