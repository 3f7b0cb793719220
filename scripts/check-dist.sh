#!/bin/sh
# Checks that the release tarball holds every file of the git tree, so that
# a test, a man page or a helper left out of EXTRA_DIST is found at once
# (distcheck reruns only the unit tests: scripts/run-tests.sh).
#
#   scripts/check-dist.sh TARBALL
#
# Files that are never shipped: .gitignore and m4/.keep.  Prints what is
# missing and exits 1; exits 0 with a note when there is no git tree (a
# tarball build has nothing to compare with).
set -eu
tarball=${1:?usage: check-dist.sh TARBALL}
cd "$(dirname "$0")/.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check-dist: not a git tree, nothing to compare"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git ls-files | grep -v -x -e .gitignore -e m4/.keep | LC_ALL=C sort >"$tmp/git"
tar tzf "$tarball" | sed 's|^[^/]*/||' | grep -v '/$' | LC_ALL=C sort >"$tmp/dist"
missing=$(LC_ALL=C comm -23 "$tmp/git" "$tmp/dist")
if [ -n "$missing" ]; then
    echo "check-dist: in git but not in $tarball:"
    echo "$missing" | sed 's/^/  /'
    exit 1
fi
echo "check-dist: all $(wc -l <"$tmp/git") tracked files are in $(basename "$tarball")"
