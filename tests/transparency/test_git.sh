#!/bin/sh
# git init, add and commit (fixed dates and identity, so the commit ids
# are the same), traced and untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need git
# The index caches stat data (inode numbers, times): not comparable.
EXCLUDE='/\.git/index$'

make_files() {
    mkdir -p docs src
    i=0
    while [ $i -lt 30 ]; do
        seq $i $((i + 300)) >"src/file$i.c"
        i=$((i + 1))
    done
    echo "readme" >README
}
export GIT_AUTHOR_NAME=iolens GIT_AUTHOR_EMAIL=iolens@example.org
export GIT_COMMITTER_NAME=iolens GIT_COMMITTER_EMAIL=iolens@example.org
export GIT_AUTHOR_DATE='2020-01-02T03:04:05Z' GIT_COMMITTER_DATE='2020-01-02T03:04:05Z'
export GIT_CONFIG_NOSYSTEM=1 HOME=$T
transparent "git" make_files '
set -e
git init -q -b main .
git add .
git commit -q -m "first"
echo more >>README
git add README
git commit -q -m "second"
git rev-parse HEAD
git log --format="%H %s" | cat
git gc -q
git fsck --no-progress 2>&1 | sort
git cat-file -p HEAD:README'
finish
