#!/usr/bin/env python3
"""Plots gpublas3-bench results: GFLOP/s against matrix size, one panel per
routine and precision, one line per peer (gpublas3, CLBlast, OpenBLAS, and
cuBLAS from cublas_peer), from one or more CSV files in the benchmark's
schema.  Only results whose check passed are drawn.  Needs matplotlib.

    python3 bench/plot.py results.csv [cublas.csv ...] -o results.png
"""
import argparse
import csv
import sys
from collections import defaultdict

ROUTINES = ["gemm", "symm", "syrk", "syr2k", "trmm"]
STYLE = {"gpublas3": ("tab:red", "o"), "clblast": ("tab:blue", "s"),
         "openblas": ("tab:green", "^"), "cublas": ("black", "D")}


def load(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            rows += [r for r in csv.DictReader(f) if r.get("status") == "ok"]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="CSV files written by gpublas3-bench --csv or cublas_peer --csv")
    ap.add_argument("-o", "--output", default="bench.png", help="PNG to write (default: bench.png)")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py needs matplotlib (pip install matplotlib)")

    rows = load(args.csv)
    if not rows:
        sys.exit("no passing results in " + ", ".join(args.csv))
    devices = sorted({r["device"] for r in rows})
    panels = sorted({(r["routine"], r["precision"]) for r in rows},
                    key=lambda p: (ROUTINES.index(p[0]) if p[0] in ROUTINES else 99, p[1] != "s"))
    # one line per peer, and per option set or device where a panel has several
    opts = defaultdict(set)
    for r in rows:
        opts[(r["routine"], r["precision"])].add(r["options"])
    lines = defaultdict(dict)
    for r in rows:
        panel = (r["routine"], r["precision"])
        label = r["peer"]
        if len(opts[panel]) > 1:
            label += " " + r["options"]
        if len(devices) > 1:
            label += " @ " + r["device"]
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
