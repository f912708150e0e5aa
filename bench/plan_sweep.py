#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The plan sweep: for every GEMM shape of a suite, the time of each
choice the plan could make -- every shape class's parameter set on the
packed path, on split-K with 2, 4, 8 and 16 slices and on the direct
kernel -- next to the default plan's, every one checked before it is timed
(gpublas3-bench does both), in S and D.

    bench/plan_sweep.sh BUILD OUT [SUITE | SHAPES]    (bench/README.md)

The choices are forced with GPUBLAS3_SHAPE, GPUBLAS3_PLAN and
GPUBLAS3_SPLITS (lib/device.c).  First each alternative's plans are probed
(gpublas3-bench --probe with GPUBLAS3_VERBOSE=1: one unchecked call per
case on zeroed buffers, no host data), so that a case is timed only under
alternatives whose plan differs from every earlier one's: a split count
clamped to K's tiles, a split the scratch refuses, the choice the default
makes anyway each run once.  Then each alternative's remaining cases are
timed, one bench process per alternative and precision, cheapest first,
the default's first of all.  An alternative that fails (an error, a wrong
result, a time-out, the time budget spent) is recorded so, never fatal.
Split-K runs on outputs of at most SWEEP_SPLITK_MN elements and direct on
calls of at most SWEEP_DIRECT_MNK multiply-adds: beyond them they cannot
win and the host's checks of big outputs cost most of the sweep's time.

Writes OUT/sweep.csv (a row per precision, shape and alternative: its
plan, and the time of the run that measured that plan), OUT/sweep.md (per
shape: the default, the best alternative, their ratio) and OUT/logs/.
Environment: SWEEP_REPS (5), SWEEP_SAMPLE (256, --sample), SWEEP_PRECISIONS
(s,d), SWEEP_SPLITS ("2 4 8 16"), SWEEP_ALTS (names such as "small/packed
deepk/splitk32 large/direct": those alone, with the default), SWEEP_SPLITK_MN (2^22), SWEEP_DIRECT_MNK
(2^30), SWEEP_BUDGET (330 s: no timed run starts after it), SWEEP_TIMEOUT
(150 s a process), SWEEP_DEVICE (the bench's --device).
"""
import csv
import os
import re
import subprocess
import sys
import time

CLASSES = ["large", "small", "skinny", "deepk", "medium"]


def setting(name, default):
    return os.environ.get("SWEEP_" + name, default)


def alternatives():
    """The default, then class/packed, class/splitkN and class/direct for
    every class and each N of SWEEP_SPLITS, or only those SWEEP_ALTS names."""
    names = setting("ALTS", "").split() or [c + "/" + p for c in CLASSES for p in
                                             ["packed"] + ["splitk" + n for n in setting("SPLITS", "2 4 8 16").split()] +
                                             ["direct"]]
    alts = [("default", {})]
    for name in names:
        c, path = name.split("/")
        env = {"GPUBLAS3_SHAPE": c}
        if path.startswith("splitk"):
            env["GPUBLAS3_SPLITS"] = path[len("splitk"):]
        else:
            env["GPUBLAS3_PLAN"] = path
        alts.append((name, env))
    return alts


def applies(alt, shape):
    m, n, k = shape[:3]
    if "/splitk" in alt:
        return m * n <= int(setting("SPLITK_MN", str(1 << 22)))
    if "/direct" in alt:
        return m * n * k <= int(setting("DIRECT_MNK", str(1 << 30)))
    return True


def shape_text(s):
    return "%dx%dx%d:%s" % s


def parse_shape(text):
    dims, tt = (text.split(":") + ["NN"])[:2]
    m, n, k = (int(x) for x in dims.split("x"))
    return (m, n, k, tt)


class Sweep:
    def __init__(self, build, out):
        self.bench = os.path.join(build, "bench", "gpublas3-bench")
        self.logs = os.path.join(out, "logs")
        os.makedirs(self.logs, exist_ok=True)
        self.start = time.time()
        self.notes = {}   # alt -> what the library said (refused values)

    def run(self, alt, env_add, args, tag, timeout):
        env = dict(os.environ, **env_add)
        for v in ("GPUBLAS3_SHAPE", "GPUBLAS3_PLAN", "GPUBLAS3_SPLITS"):
            if v not in env_add:
                env.pop(v, None)
        device = ["--device", setting("DEVICE", "")] if setting("DEVICE", "") else []
        log = os.path.join(self.logs, "%s-%s.log" % (alt.replace("/", "-"), tag))
        try:
            p = subprocess.run([self.bench, "--peers", "gpublas3"] + device + args, env=env, timeout=timeout,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            text, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            text, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
        with open(log, "w") as f:
            f.write(text)
        return text, rc

    def probe(self, alt, env_add, precs, listing):
        """{(precision, shape): plan key} of one alternative's calls over a
        listing (--suite NAME or --shapes LIST), or 'error: ...'.  The key
        is the call's plan lines less what was forced; a direct call's
        without its class, whose set the direct kernel does not read."""
        text, rc = self.run(alt, dict(env_add, GPUBLAS3_VERBOSE="1"),   # the suite's GEMM shapes only
                            ["--probe", "--routines", "gemm", "--precisions", precs] + listing,
                            "probe", int(setting("TIMEOUT", "150")))
        plans, lines = {}, []
        for line in text.splitlines():
            if line.startswith("gpublas3: plan: "):
                line = line[len("gpublas3: plan: "):].split("; forced")[0]
                lines.append(re.sub(r"direct, \w+ set \([^)]*\) ", "direct, ", line))
            elif line.startswith("probe "):
                _, prec, shape, status = line.split(" ", 3)
                plans[prec, parse_shape(shape)] = " | ".join(lines) if status == "ok" else "error: " + status
                lines = []
            elif "ignored" in line:
                self.notes[alt] = line
        if not plans:
            self.notes[alt] = "probe failed (exit %s): logs/%s-probe.log" % (rc, alt.replace("/", "-"))
        return plans

    def timed(self, alt, env_add, precs, shapes, budget):
        """{(precision, shape): (median_s, gflops, status)} of one timed bench run."""
        if time.time() - self.start > budget:
            return {(p, s): (None, None, "skipped: time budget") for p in precs for s in shapes}
        path = os.path.join(self.logs, "%s.csv" % alt.replace("/", "-"))
        args = ["--precisions", ",".join(precs), "--reps", setting("REPS", "5"), "--sample",
                setting("SAMPLE", "256"), "--shapes", ",".join(map(shape_text, shapes)), "--csv", path]
        _, rc = self.run(alt, env_add, args, "timed", int(setting("TIMEOUT", "150")))
        got = {}
        if os.path.exists(path):
            with open(path) as f:
                for r in csv.DictReader(f):
                    ta, tb = re.search(r"transA=(\w) transB=(\w)", r["options"]).groups()
                    s = (int(r["m"]), int(r["n"]), int(r["k"]), ta + tb)
                    ok = r["status"] == "ok"
                    got[r["precision"], s] = (float(r["median_s"]) if ok else None, float(r["gflops"]) if ok else None,
                                              r["status"])
        return {(p, s): got.get((p, s), (None, None, "no result (exit %s)" % rc)) for p in precs for s in shapes}


def short(plan):
    """'split-k deepk x32' from a plan line (the first call's)."""
    first = plan.split(" | ")[0]
    m, n = re.search(r": (packed|direct|split-k), (\w+) set ", first), re.search(r"splits=(\d+)", first)
    if ": direct," in first:
        return "direct"
    if not m:
        return plan[:40]
    return "%s %s%s" % (m[1], m[2], " x" + n[1] if m[1] == "split-k" and n else "")


def fmt_time(t):
    return "-" if t is None else "%.0f us" % (t * 1e6) if t < 1e-3 else "%.2f ms" % (t * 1e3)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    build, out = argv[1], argv[2]
    which = argv[3] if len(argv) > 3 else "shapes"
    sweep = Sweep(build, out)
    precs = setting("PRECISIONS", "s,d")
    budget = float(setting("BUDGET", "330"))
    alts = alternatives()
    # the cases: the default's probe of the suite
    listing = ["--shapes", which] if "x" in which else ["--suite", which]
    plans = {"default": sweep.probe("default", {}, precs, listing)}   # alt -> {(prec, shape): key}
    cases = list(plans["default"])
    shapes = list(dict.fromkeys(s for _, s in cases))
    if not cases:
        sys.exit("plan_sweep: no shapes (%s/default-probe.log)" % sweep.logs)
    owner = {}      # ((prec, shape), key) -> the first alternative with that plan
    jobs = []       # (cost, alt, env, precisions, shapes): the cases whose plan it is the first to have
    for alt, env in alts:
        mine = [s for s in shapes if applies(alt, s)]
        if alt not in plans:
            plans[alt] = sweep.probe(alt, env, precs, ["--shapes", ",".join(map(shape_text, mine))]) if mine else {}
        new = [c for c, key in plans[alt].items()
               if not key.startswith("error") and owner.setdefault((c, key), alt) == alt]
        todo = list(dict.fromkeys(s for _, s in new))
        if new:
            cost = 0 if alt == "default" else sum(s[0] * s[1] + s[0] * s[1] * s[2] / 1e4 for s in todo)
            jobs.append((cost, alt, env, sorted(set(p for p, _ in new)), todo))
    print("probed: %d plans to time, %.0f s" % (len(owner), time.time() - sweep.start), flush=True)
    timed = {}      # (alt, (prec, shape)) -> (median, gflops, status)
    for cost, alt, env, ps, todo in sorted(jobs, key=lambda j: j[0]):
        for c, r in sweep.timed(alt, env, ps, todo, budget).items():
            timed[alt, c] = r
        print("timed %s: %d shapes, %.0f s" % (alt, len(todo), time.time() - sweep.start), flush=True)
    write(sweep, out, cases, alts, plans, owner, timed)


def write(sweep, out, cases, alts, plans, owner, timed):
    table = ["| S/D | shape | default | its time | best alternative | its time | default / best |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    with open(os.path.join(out, "sweep.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["precision", "shape", "alternative", "plan", "measured_as", "median_s", "gflops", "status"])
        for c in sorted(cases, key=lambda c: "sdcz".index(c[0])):
            rows = []
            for alt, _ in alts:
                key = plans[alt].get(c)
                if key is None:
                    continue
                first = owner.get((c, key), alt)
                med, gf, status = timed.get((first, c), (None, None, key if key.startswith("error") else "not timed"))
                w.writerow([c[0], shape_text(c[1]), alt, key, first, med, gf, status])
                rows.append((alt, key, med))
            default = rows[0]
            best = min((r for r in rows if r[2] is not None), key=lambda r: r[2], default=None)
            head = "| %s | %s | %s | %s " % (c[0].upper(), shape_text(c[1]), short(default[1]), fmt_time(default[2]))
            ratio = "%.2f" % (default[2] / best[2]) if best and default[2] else "-"
            table.append(head + ("| %s: %s | %s | %s |" % (best[0], short(best[1]), fmt_time(best[2]), ratio)
                                 if best else "| - | - | - |"))
    notes = ["", "Refused values (the alternative ran as the library fell back):"] + \
        ["- %s: %s" % kv for kv in sorted(sweep.notes.items())] if sweep.notes else []
    with open(os.path.join(out, "sweep.md"), "w") as f:
        f.write("\n".join(table + notes) + "\n")
    print("\n".join(table + notes))
    results = [r for (alt, _), r in timed.items()]
    bad = sum(1 for r in results if r[2] != "ok" and not r[2].startswith("skipped"))
    skipped = sum(1 for r in results if r[2].startswith("skipped"))
    print("sweep: %d plans timed, %d failed, %d skipped (time budget), %d refused values, %.0f s; %s/sweep.csv, "
          "sweep.md, logs/" % (len(results) - bad - skipped, bad, skipped, len(sweep.notes),
                               time.time() - sweep.start, out))


if __name__ == "__main__":
    main(sys.argv)
