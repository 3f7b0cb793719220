#!/bin/sh
# sort of a 50 MB file (its temporary files included), traced and
# untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need sort awk

# 50 MB of lines in no order, made once (deterministic).
awk 'BEGIN { x = 12345; for (i = 0; i < 2600000; i++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%010d line %d\n", x, i } }' \
    >"$T/input"
size=$(wc -c <"$T/input")
check_gt "$size" 50000000 "size of the input"

copy_input() {
    cp "$T/input" input
    mkdir tmp
}
# -S 16M: sort spills to temporary files, which are I/O too.
transparent "sort of 50 MB" copy_input '
sort -S 16M -T tmp input >sorted && sha256sum sorted && wc -l <sorted && ls tmp | wc -l'
# sha256sum reads the sorted file with read() (wc reads its standard
# input, opened before its exec: not a file iolens saw opened).  sort
# itself does its I/O with fread_unlocked/fwrite_unlocked, which iolens
# does not intercept.
check_gt "$(logs_total POSIX_BYTES_READ)" "$((size - 1))" "bytes read in the logs"
finish
