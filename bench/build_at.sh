#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Older builds to time beside this one (gpu_run.sh's compare phase, or a
# bisection): for each git revision, its libgpublas3.so* and gpublas3-bench
# in DEST/NAME, NAME the revision's short hash.  Kernels and tuned rows are
# compiled into the library, so a folder is the whole of that version.
# Usage: sh bench/build_at.sh DEST REV...
#   e.g. sh bench/build_at.sh .device-carry/base 7a6a48a 28db9cb
# Each build takes a worktree under a temporary folder, removed after.
set -eu
dest=${1:?destination folder}
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tmp/src" 2>/dev/null; rm -rf "$tmp"' EXIT
for rev in "$@"; do
    name=$(git -C "$repo" rev-parse --short "$rev^{commit}")
    git -C "$repo" worktree add --detach "$tmp/src" "$rev" >/dev/null 2>&1
    cmake -S "$tmp/src" -B "$tmp/build" -DPython3_EXECUTABLE="$(command -v python3)" >"$tmp/log" 2>&1 &&
        cmake --build "$tmp/build" -j"$(nproc)" --target gpublas3 gpublas3-bench >>"$tmp/log" 2>&1 ||
        { tail -n 20 "$tmp/log"; exit 1; }
    rm -rf "${dest:?}/$name" && mkdir -p "$dest/$name"
    cp -a "$tmp/build"/libgpublas3.so* "$tmp/build/bench/gpublas3-bench" "$dest/$name/"
    git -C "$repo" worktree remove --force "$tmp/src"
    rm -rf "$tmp/build"
    echo "$dest/$name: $(git -C "$repo" log -1 --format='%h %s' "$rev" | cut -c1-72)"
done
