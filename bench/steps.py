#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Median time of each step (copy kernel, GEMM kernel) of the calls in a PoCL
trace, from a run of one routine and precision:

  GPUBLAS3_BENCH_PROFILE=1 POCL_TRACING=text POCL_TRACING_OPT=trace.log \\
      gpublas3-bench --routines trmm --precisions s --sizes 1024 --peers gpublas3
  bench/steps.py trace.log

A call is the run of kernels between two buffer transfers; calls with the
same sequence of kernels are grouped (the checked call and the timed ones).

On any device, the library's own trace (its output under GPUBLAS3_TRACE=1,
with GPUBLAS3_VERBOSE=1 for the plans), of any routines and shapes:

  GPUBLAS3_BENCH_PROFILE=1 GPUBLAS3_TRACE=1 GPUBLAS3_VERBOSE=1 \\
      gpublas3-bench --shapes 1024x1024x1024 --peers gpublas3 > run.txt 2>&1
  bench/steps.py run.txt       (or run.txt.gz)

groups the calls by plan and sequence of steps and prints, in us, each
step's median run time, then the calls' median running (the steps' sum)
and span (first enqueue to last end)."""
import gzip
import re
import statistics
import sys


def lines(path):
    """A trace file's lines, gzipped or not."""
    return (gzip.open if path.endswith('.gz') else open)(path, 'rt', errors='replace')


def steps(path):
    started, done = {}, []
    for line in lines(path):
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


PLAN = re.compile(r'gpublas3: plan: (.*)')
STEP = re.compile(r'gpublas3: trace: step \d+ (\S+) .* run +([\d.]+) us')
END = re.compile(r'gpublas3: trace: \d+ steps, first queued to last end ([\d.]+) us, running ([\d.]+) us')


def lib_steps(path):
    """The library's trace: {(plan, step names): [[run..., running, span], ...]}."""
    groups, plan, cur = {}, '', []
    for line in lines(path):
        if m := PLAN.search(line):
            plan = m.group(1)
        elif m := STEP.search(line):
            cur.append(m.groups())
        elif m := END.search(line):
            span, running = (float(x) for x in m.groups())
            groups.setdefault((plan, tuple(n for n, _ in cur)), []).append(
                [float(t) for _, t in cur] + [running, span])
            cur = []
    return groups


if __name__ == '__main__':
    if len(sys.argv) != 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    lib = lib_steps(sys.argv[1])
    for (plan, names), runs in lib.items():
        med = [statistics.median(t) for t in zip(*runs)]
        print('%s\n  %d calls: %s  running %.1f  span %.1f us' % (
            plan or '(no plan: GPUBLAS3_VERBOSE=1 prints it)', len(runs),
            '  '.join('%s %.1f' % nm for nm in zip(names, med)), med[-2], med[-1]))
    if lib:
        sys.exit(0)
    for names, runs in steps(sys.argv[1]).items():
        med = [statistics.median(t) for t in zip(*runs)]
        if not any(med):
            sys.exit('no kernel times: run the bench with GPUBLAS3_BENCH_PROFILE=1')
        print('%d calls: %s  total %.2f ms' % (len(runs), '  '.join('%s %.2f' % nm for nm in zip(names, med)), sum(med)))
