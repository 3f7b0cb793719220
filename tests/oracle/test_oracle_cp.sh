#!/bin/sh
# cp with copy_file_range (the default) and cp --reflink=never (read and
# write), traced under strace at three budgets: iolens's counters must be
# strace's (tests/oracle/strace_oracle.py).
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need cp cmp

# 3 MB of varied bytes, and a 1-byte and an empty file.
make_inputs() {
    "$PY" -c 'import random; random.seed(7); open("big", "wb").write(random.randbytes(3 * 1000 * 1000 + 17))' &&
        printf x >one && : >empty
}

oracle_program cp_cfr make_inputs 'cp big big.copy && cp one one.copy && cp empty empty.copy && cmp big big.copy && echo same'
oracle_program cp_rw make_inputs 'cp --reflink=never big big.copy && cp --reflink=never one one.copy && cmp big big.copy && echo same'
# The copies hold every byte: 3000017 read from big and written to its copy.
check_eq 3000017 "$(stat -c %s "$T/work/big.copy")" "size of the copy"
oracle_table
finish
