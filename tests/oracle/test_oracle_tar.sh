#!/bin/sh
# tar cf over a tree of 2,525 files (25 directories of 101 files each),
# traced under strace at three budgets: at the default 2M about half the
# files fold into <other files>, at 256K and 64K most do, and the counts
# must still be strace's.  (test_budget_fold_tar.sh archives 10,180 files;
# this tree is smaller so that the two tar tests do not cost the suite
# twice the same minute.)
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need tar

# One python process writes the whole tree: fast, and sizes 0-99 bytes.
# Fixed times, so that the archive is the same from run to run.
make_tree() {
    "$PY" -c '
import os
for d in range(25):
    os.makedirs("tree/d%03d" % d)
    for f in range(101):
        with open("tree/d%03d/f%03d" % (d, f), "wb") as out:
            out.write(b"t" * ((d + f) % 100))
        os.utime("tree/d%03d/f%03d" % (d, f), (1700000000, 1700000000))
    os.utime("tree/d%03d" % d, (1700000000, 1700000000))
os.utime("tree", (1700000000, 1700000000))
'
}

oracle_program tar make_tree 'tar cf tree.tar tree && tar tf tree.tar | wc -l'
check_eq 2551 "$(cat "$T/tar.plain.out" | tr -d ' ')" "entries listed by tar tf (untraced)"
oracle_table
finish
