#!/bin/sh
# gzip and gunzip, traced under strace at three budgets.
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need gzip gunzip cmp

make_data() {
    "$PY" -c '
import random
random.seed(3)
words = [b"alpha", b"beta", b"gamma", b"delta", b"\n"]
open("data", "wb").write(b" ".join(random.choice(words) for _ in range(400000)))' && cp data data.orig
}

oracle_program gzip make_data 'gzip -9 data && gunzip data.gz && cmp data data.orig && echo same'
oracle_table
finish
