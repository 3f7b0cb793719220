#!/bin/sh
# Folding into <other files> is per process image: a file one process
# folded (its budget full) may have its own record in another process's
# log.  strace_oracle.py must compare each image's files and folded group
# with that image's system calls; grouping over the whole run once blamed
# iolens for "lost" counts that sat, exact, in one log's <other files>.
# Here one cat reads 400 files at a 64K budget (the last ones fold), then
# a second cat reads the last file alone (named).  The last file in the
# glob's order is in99: 40 files once sufficed to fold in39, and 80 to
# fold in9, but records got smaller, and closed ones are parked, so that
# a 64K budget now holds some 170 files (its record table's limit).
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need cat

make_files() {
    i=0
    while [ $i -lt 400 ]; do
        printf 'line of file %d\n' $i >"in$i"
        i=$((i + 1))
    done
}

BUDGETS=64K
oracle_program fold make_files 'cat in* >all.txt && cat in99'
# The test means something only if the first cat did fold in99 at 64K.
check_gt "$(logs_header_max "$T/fold-64K" "folded files")" 0 "files folded by the first cat at 64K"
for log in $(logs_in "$T/fold-64K"); do
    "$IOLENS_PARSER" --base "$log"
done | awk -F'\t' '$1 == "POSIX" && $4 == "POSIX_OPENS" && $6 ~ /\/in99$/ { s += $5 } END { print s + 0 }' >"$T/named"
check_eq 1 "$(cat "$T/named")" "opens of in99 named at 64K (only the second cat's)"
oracle_table
finish
