#!/bin/sh
# mkstemp and its siblings open their file inside the C library: each such
# file has its open, its write and its bytes counted (git makes its index
# and objects so).  The names and sizes are prog_mkstemp.c's own.
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
iolens_setup

mkdir "$T/tmp" || fail "cannot make $T/tmp"
run_traced "$T/log.iolens" "$PROGS/prog_mkstemp" "$T/tmp" >"$T/names" 2>"$T/err"
check_eq 0 "$?" "prog_mkstemp's exit status ($(cat "$T/err"))"
require_log "$T/log.iolens"
check_eq 8 "$(wc -l <"$T/names")" "files made"
size=100
while read -r name; do
    check_eq 1 "$(counter "$T/log.iolens" "$name" POSIX_OPENS)" "opens of $name"
    check_eq 1 "$(counter "$T/log.iolens" "$name" POSIX_WRITES)" "writes to $name"
    check_eq "$size" "$(counter "$T/log.iolens" "$name" POSIX_BYTES_WRITTEN)" "bytes to $name"
    check_eq "$size" "$(wc -c <"$name" | tr -d ' ')" "size of $name on disk"
    size=$((size + 1))
done <"$T/names"
check_eq "<none>" "$(counter "$T/log.iolens" "$T/tmp/no-template" POSIX_OPENS)" \
    "a record for the failed mkstemp"
finish
