#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Fails when a file of the source tree cites a numbered work log (a session,
# call, attempt, issue or notes-section number, a numbered run folder): the
# tree says what is true now, and git keeps the history (STYLE.md).  The
# files are git's tracked ones, or, outside a git checkout, every file under
# the source folder but build folders.  Prints each offending file and line.
#
#   sh tests/tree/worklogs.sh [SOURCE_DIR]
set -u
src=${1:-.}
cd "$src" || exit 2
self=tests/tree/worklogs.sh

# The bracketed letters keep this file from matching its own patterns.
pattern='\b([S]ession|[I]ssue|[s]ession|[i]ssue)s? #?[0-9]+'
pattern="$pattern"'|NOTE[S](\.md)?,? (sections? )?[0-9]+|bench/NOTE[S]'
pattern="$pattern"'|\b(call|run|attempt)[0-9]+/|\bcall[s]? [0-9]+\b|[Aa]ttemp[t]s? [0-9]+'
pattern="$pattern"'|[Ss]essio[n]-?[0-9]+|\bNOTE[S]\b|kept[ ]to compare|as befor[e] 20[0-9][0-9]-'

list() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files
    else
        # skip version control and build folders (any folder holding a CMakeCache.txt)
        find . \( -name .git -o -name 'build*' -o -name '_build*' \) -prune -o \
            -type d -exec test -e '{}/CMakeCache.txt' ';' -prune -o -type f -print | sed 's|^\./||'
    fi
}

hits=$(list | grep -vx "$self" | while IFS= read -r f; do
    [ -f "$f" ] && grep -nIHE -- "$pattern" "$f"
done)
if [ -n "$hits" ]; then
    echo "numbered work logs cited (say what is true now, or point to docs/performance.md):"
    printf '%s\n' "$hits"
    echo "$(printf '%s\n' "$hits" | cut -d: -f1 | sort -u | wc -l) file(s)"
    exit 1
fi
echo "no numbered work log cited in $(list | wc -l) files"
