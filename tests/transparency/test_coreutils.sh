#!/bin/sh
# cp -r, dd and find | xargs, traced and untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need cp dd find xargs grep

make_tree() {
    mkdir -p tree/x/y tree/z
    i=0
    while [ $i -lt 60 ]; do
        seq $i $((i * 50)) >"tree/x/n$i"
        [ $((i % 3)) -eq 0 ] && printf 'needle %d\n' $i >>"tree/x/y/m$i"
        i=$((i + 1))
    done
    head -c 1048576 "$T/random" >tree/z/big
}
head -c 1048576 /dev/urandom >"$T/random"

transparent "cp -r, dd, find | xargs" make_tree '
set -e
cp -r tree copy
dd if=tree/z/big of=dd.out bs=4096 count=100 skip=3 status=none
dd if=tree/z/big bs=1000 count=7 status=none | sha256sum
find copy -type f -name "m*" | LC_ALL=C sort | xargs grep -h needle | sort -n -k2
find tree -type f -print0 | xargs -0 -n 7 cat | sha256sum
find tree -type f | xargs wc -c | sort -k2 | tail -n 3'
check_gt "$(logs_total POSIX_BYTES_WRITTEN)" 1048575 "bytes written in the logs (the copy of big)"
finish
