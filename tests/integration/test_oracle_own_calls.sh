#!/bin/sh
# The oracle (tests/oracle/strace_oracle.py) on calls whose system calls
# differ from iolens's counts by rule, not by error: fdopen (a STDIO open
# with no open system call; glibc's F_GETFL and iolens's SEEK_CUR lseek),
# fopen's streams taken up at fileno() (the same pair, no open), and
# iolens's lseek asking where an O_APPEND write landed (descriptors opened
# with O_APPEND or given it by fcntl F_SETFL).  prog_own_calls
# make each; the oracle must find no difference, file by file.
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup


BUDGETS=default
oracle_program own true "$PROGS/prog_own_calls fdopened.txt fileno.txt appended.txt && cat fdopened.txt fileno.txt appended.txt"
oracle_table
finish
