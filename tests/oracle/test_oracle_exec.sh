#!/bin/sh
# An exec chain: timeout runs sh -c, which runs xargs, which runs cat and
# wc in turn, writing through redirections: every process image leaves its
# own log, and the standard streams change meaning at each exec.
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need timeout xargs cat wc

make_files() {
    "$PY" -c '
for i in range(40):
    open("in%02d" % i, "w").write("line of file %d\n" % i * (i + 1))' && ls in* >names
}

oracle_program exec make_files 'timeout 60 sh -c "xargs -n 8 cat <names >all.txt && wc -c <all.txt && xargs -n 20 wc -l <names | tail -n 1"'
oracle_table
finish
