#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The plan the H100 would choose for each shape, read on PoCL (no GPU needed).

    python3 bench/h100_plans.py BUILD SHAPES [s,d]

BUILD is a build folder (its bench/gpublas3-bench), SHAPES a --shapes list.
The H100's rows (tuned-params/nvidia-h100.csv) are loaded as GPUBLAS3_PARAMS
class lists, one precision at a time, with a GPU's defaults where a row
leaves a field 0 and PoCL's own would differ (GPU_DEFAULTS, GPU_FIXED);
PoCL is given the H100's 132 compute units (POCL_MAX_PTHREAD_COUNT), and
one unchecked call per shape (--probe) prints its plan (GPUBLAS3_VERBOSE):
class, path, split, operands read in place.  A tensor-core row (mma, NVIDIA
only) is loaded as the portable set with the same work-items (MDIMC x 32
along m), which is all the plan reads of it; its kernel is not the H100's.
C's prefetch (cpref) is NVIDIA only and not loaded, so where the H100's
launch would prefetch C (beta != 0, unsplit, K <= 512 on a row with cpref)
the H100 reads B' in place along n nowhere, and A' along m only where
nothing else is packed, whatever this lists (packed.c;
docs/performance.md, In-place operands)."""
import csv
import os
import subprocess
import sys

# copy_direct too: the plan's CPU rules (in place along m or n within 64
# pages, the CPU skinny panels, packed.c) follow PoCL's copy_direct 1
KERNEL = ["mwg", "nwg", "kwg", "mdimc", "ndimc", "vwm", "vwn", "sa", "sb", "db", "kwi", "pad", "mma", "copy_direct",
          "copy_ts", "copy_rs"]
PLAN = ["direct_max", "splitk_k", "splitk_wgs", "deepk_max", "skinny_max", "medium_wgs", "medium_k", "kreuse",
        "square2k", "batch_max"]  # 0: the default, the GPU's where it differs from a CPU's (lib/device.c)
GPU_DEFAULTS = {"direct_max": 128, "splitk_k": 256}
# fields the H100's rows leave to the library, where PoCL's rows or a CPU's
# defaults differ (TRMM and TRSM by substitution, cvec, rtmap: lib/device.c)
GPU_FIXED = ["wtm=0", "cvec=0", "rtmap=0", "trsm_subst=0", "trsm_leaf=1024"]


def params(table, precision):
    lines = [l for l in open(table) if not l.startswith("#")]
    lists = []
    for row in csv.DictReader(lines):
        if row["precision"] != precision:
            continue
        f = {k: int(row[k]) for k in KERNEL + PLAN}
        if f["mma"]:
            f.update(mdimc=f["mdimc"] * 32, vwm=1, kwi=1, mma=0)
            while f["mwg"] % f["mdimc"]:
                f["mdimc"] //= 2
        cls = "" if row["shape"] == "any" else row["shape"] + ":"
        f.update({k: v for k, v in GPU_DEFAULTS.items() if not f[k]})
        fields = ["%s=%d" % (k, f[k]) for k in KERNEL + PLAN if f[k] or k not in PLAN]
        lists.append(("s:" if precision == "32" else "d:") + cls + ",".join(fields + GPU_FIXED))
    return ";".join(lists)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, shapes = sys.argv[1], sys.argv[2]
    precisions = sys.argv[3].split(",") if len(sys.argv) > 3 else ["s", "d"]
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tuned-params", "nvidia-h100.csv")
    for p in precisions:
        env = dict(os.environ, GPUBLAS3_PARAMS=params(table, "32" if p == "s" else "64"),
                   POCL_MAX_PTHREAD_COUNT="132", GPUBLAS3_VERBOSE="1")
        out = subprocess.run([os.path.join(build, "bench", "gpublas3-bench"), "--shapes", shapes, "--precisions", p,
                              "--peers", "gpublas3", "--probe"], env=env, capture_output=True, text=True)
        for line in (out.stdout + out.stderr).splitlines():
            if "plan: " in line or "ignored" in line:
                print(line.split("plan: ")[-1].replace(" terms=1 tri=0 band=0", ""))


if __name__ == "__main__":
    main()
