#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots gpublas3-bench results: GFLOP/s against matrix size, one panel per
routine and precision, one line per peer (gpublas3, CLBlast, OpenBLAS, and
cuBLAS from cublas_peer), from one or more CSV files in the benchmark's
schema.  Results of shape runs (--shapes, --suite: the CSV's `group` is set)
are drawn as bars of TFLOP/s per shape, one bar per peer, a panel per
precision and routine.  Only results whose check passed are drawn.
--table prints the results as a Markdown table instead, one row per case
(by precision, then group), a column per peer and gpublas3's ratio to each
(calls under 0.1 GFLOP show their median time per call).  Needs matplotlib
for the PNG only.

    python3 bench/plot.py results.csv [cublas.csv ...] -o results.png
    python3 bench/plot.py --table results.csv cublas.csv
"""
import argparse
import csv
import sys
from collections import defaultdict

ROUTINES = ["gemm", "symm", "syrk", "syr2k", "trmm", "trsm", "hemm", "herk", "her2k"]
STYLE = {"gpublas3": ("tab:red", "o"), "clblast": ("tab:blue", "s"),
         "openblas": ("tab:green", "^"), "cublas": ("black", "D")}


def load(paths, every=False):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            rows += [r for r in csv.DictReader(f) if every or r.get("status") == "ok"]
    return rows


def case_key(r):
    return (r["precision"], r["routine"], r["options"], int(r["m"]), int(r["n"]), int(r["k"]))


def shape_of(r):
    return r.get("shape") or r["n"]


def ops(r):
    """The options as the bench's table abbreviates them: "NT", "LLNU"."""
    return "".join(w.split("=")[1] for w in r["options"].split() if "=" in w and not w.startswith("batch="))


def label(r):
    """A case as the shape lists write it: "8192x64x8192 NT", "syrk 8192x256 LN"."""
    return ("" if r["routine"] == "gemm" else r["routine"] + " ") + shape_of(r) + " " + ops(r)


def cases(rows):
    """Cases in the order first seen, with each peer's row."""
    order, by = [], {}
    for r in rows:
        k = case_key(r)
        if k not in by:
            order.append(k)
            by[k] = {"_row": r}
        by[k][r["peer"]] = r
    return order, by


def peers_of(rows):
    known = ["gpublas3", "clblast", "cublas", "openblas"]
    seen = {r["peer"] for r in rows}
    return [p for p in known if p in seen] + sorted(seen - set(known))


def table(rows):
    """Markdown: one row per case; GFLOP/s (TFLOP/s above 1000), or the
    median time per call under 0.1 GFLOP; then gpublas3 / each peer."""
    peers = peers_of(rows)
    others = [p for p in peers if p != "gpublas3"]
    order, by = cases(rows)
    groups = list(dict.fromkeys(by[k]["_row"].get("group", "") for k in order))
    order.sort(key=lambda k: ("sdcz".find(k[0]), groups.index(by[k]["_row"].get("group", ""))))
    head = ["S/D", "shape (op)", "group"] + peers + ["ours/" + p for p in others if "gpublas3" in peers]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for k in order:
        c = by[k]
        r0 = c["_row"]
        flops = max([float(r["gflops"]) * float(r["median_s"]) * 1e9 for p, r in c.items()
                     if p != "_row" and r["status"] == "ok"] or [0])
        small = 0 < flops < 1e8
        cells = [r0["precision"].upper(), label(r0), r0.get("group", "")]
        for p in peers:
            r = c.get(p)
            if not r:
                cells.append("")
            elif r["status"] != "ok":
                cells.append(r["status"].split(":")[0])
            elif small:
                cells.append("%.0f µs" % (1e6 * float(r["median_s"])))
            else:
                g = float(r["gflops"])
                cells.append("%.1f TF" % (g / 1000) if g >= 1000 else "%.1f GF" % g)
        ours = c.get("gpublas3")
        for p in others:
            r = c.get(p)
            if "gpublas3" not in peers:
                break
            ok = ours and r and ours["status"] == "ok" and r["status"] == "ok"
            cells.append("%.2f" % (float(ours["gflops"]) / float(r["gflops"])) if ok else "")
        print("| " + " | ".join(cells) + " |")


def bars(rows, output, plt):
    """One panel per precision (and routine): bars of TFLOP/s per shape."""
    peers = peers_of(rows)
    order, by = cases(rows)
    panels = []
    for k in order:
        if (k[0], k[1]) not in panels:
            panels.append((k[0], k[1]))
    most = max(sum(1 for k in order if (k[0], k[1]) == panel) for panel in panels)
    fig, axes = plt.subplots(len(panels), 1, figsize=(max(8, 0.35 * most + 2), 4.2 * len(panels)), squeeze=False)
    width = 0.8 / len(peers)
    for ax, panel in zip(axes.flat, panels):
        ks = [k for k in order if (k[0], k[1]) == panel]
        for i, p in enumerate(peers):
            xs, ys = [], []
            for x, k in enumerate(ks):
                r = by[k].get(p)
                if r and r["status"] == "ok":
                    xs.append(x + (i - (len(peers) - 1) / 2) * width)
                    ys.append(float(r["gflops"]) / 1000)
            ax.bar(xs, ys, width, label=p, color=STYLE.get(p, (None, ""))[0])
        labels = [shape_of(r) + "\n" + ops(r) + " " + r.get("group", "") for r in (by[k]["_row"] for k in ks)]
        ax.set_xticks(range(len(ks)), labels, rotation=60, ha="right", fontsize="x-small")
        ax.set_yscale("log")   # small calls and large ones differ by orders of magnitude
        ax.set_ylabel("TFLOP/s")
        ax.set_title(panel[0] + panel[1] + " by shape")
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    devices = sorted({r["device"] for r in rows})
    dates = sorted({r["date"][:10] for r in rows})
    fig.suptitle("gpublas3-bench shapes on " + "; ".join(devices) + " (" + ", ".join(dates) + ")", fontsize="medium")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(output, dpi=110)
    print("wrote", output)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="CSV files written by gpublas3-bench --csv or cublas_peer --csv")
    ap.add_argument("-o", "--output", default="bench.png", help="PNG to write (default: bench.png)")
    ap.add_argument("--table", action="store_true", help="print a Markdown table instead of drawing")
    args = ap.parse_args()
    if args.table:
        rows = load(args.csv, every=True)
        if not rows:
            sys.exit("no results in " + ", ".join(args.csv))
        table(rows)
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py needs matplotlib (pip install matplotlib)")

    rows = load(args.csv)
    if not rows:
        sys.exit("no passing results in " + ", ".join(args.csv))
    if any(r.get("group") for r in rows):
        bars(rows, args.output, plt)
        return
    devices = sorted({r["device"] for r in rows})
    panels = sorted({(r["routine"], r["precision"]) for r in rows},
                    key=lambda p: (ROUTINES.index(p[0]) if p[0] in ROUTINES else 99, p[1] != "s"))
    # one line per peer, and per option set or device where a panel has
    # several; a batch sweep's count changes with n, so it is no option set,
    # and a second batch at the same n (the 1000-product comparison) is a
    # line of its own
    def base(r):
        return " ".join(w for w in r["options"].split() if not w.startswith("batch="))
    opts = defaultdict(set)
    for r in rows:
        opts[(r["routine"], r["precision"])].add(base(r))
    lines = defaultdict(dict)
    for r in rows:
        panel = (r["routine"], r["precision"])
        label = r["peer"]
        if len(opts[panel]) > 1:
            label += " " + base(r)
        if len(devices) > 1:
            label += " @ " + r["device"]
        if any(p[0] == int(r["n"]) for p in lines[panel].get(label, [])):
            label += " " + " ".join(w for w in r["options"].split() if w.startswith("batch="))
        lines[panel].setdefault(label, []).append((int(r["n"]), float(r["gflops"]), r["peer"]))

    ncols = 2 if len(panels) > 1 else 1
    nrows = (len(panels) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(6 * ncols, 3.6 * nrows), squeeze=False)
    for ax, panel in zip(axes.flat, panels):
        for label, pts in sorted(lines[panel].items()):
            pts.sort()
            color, marker = STYLE.get(pts[0][2], (None, "x"))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=color, label=label)
        ax.set_title(panel[1] + panel[0])
        ax.set_xscale("log", base=2)
        ticks = []
        for n in sorted({p[0] for pts in lines[panel].values() for p in pts}):
            if not ticks or n > 1.15 * ticks[-1]:   # 1000 and 1024 would overprint
                ticks.append(n)
        ax.set_xticks(ticks, [str(n) for n in ticks])
        ax.minorticks_off()
        ax.set_xlabel("n (M = N = K)")
        ax.set_yscale("log")   # peers differ by orders of magnitude; ratios read as distances
        ax.set_ylabel("GFLOP/s")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    dates = sorted({r["date"][:10] for r in rows})
    fig.suptitle("gpublas3-bench on " + "; ".join(devices) + " (" + ", ".join(dates) + ")", fontsize="medium")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(args.output, dpi=110)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
