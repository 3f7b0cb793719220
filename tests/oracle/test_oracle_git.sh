#!/bin/sh
# git init, add and commit of 300 files, traced under strace at three
# budgets.  Dates and names are fixed so that the commit is the same
# untraced and traced.
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need git

make_files() {
    "$PY" -c '
import os
for d in range(10):
    os.makedirs("src/m%d" % d)
    for f in range(30):
        with open("src/m%d/f%02d.txt" % (d, f), "w") as out:
            out.write("module %d file %d\n" % (d, f) * (1 + f))
'
}

export GIT_AUTHOR_NAME=oracle GIT_AUTHOR_EMAIL=oracle@example.org GIT_COMMITTER_NAME=oracle
export GIT_COMMITTER_EMAIL=oracle@example.org GIT_AUTHOR_DATE='2026-01-01T00:00:00Z'
export GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
# The index holds stat data (inodes, times): it differs from run to run.
EXCLUDE='\./\.git/index$'
oracle_program git make_files 'HOME=$PWD git init -q -b main . && git add src && git commit -q -m files && git rev-parse HEAD^{tree} && git ls-files | wc -l'
check_eq 300 "$(tail -n 1 "$T/git.plain.out" | tr -d ' ')" "files git committed"
oracle_table
finish
