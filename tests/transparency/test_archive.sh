#!/bin/sh
# tar creating and extracting a tree, gzip and gunzip (and a gunzip that
# fails on a damaged file: same status), traced and untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need tar gzip gunzip

make_tree() {
    mkdir -p src/a/b src/c
    i=0
    while [ $i -lt 40 ]; do
        seq $((i * 100)) $((i * 137 + 500)) >"src/a/f$i.txt"
        i=$((i + 1))
    done
    head -c 300000 "$T/random" >src/c/blob.bin
    ln -s ../c/blob.bin src/a/b/link
    printf 'not gzip data at all' >bad.gz
    # Fixed times: the archive and gzip's header record them.
    find src bad.gz -exec touch -h -d '2020-01-02 03:04:05' {} +
}
head -c 300000 /dev/urandom >"$T/random"

transparent "tar and gzip" make_tree '
set -e
tar --sort=name --owner=0 --group=0 --numeric-owner -cf tree.tar src
tar -tvf tree.tar | sort
mkdir out
tar -xf tree.tar -C out
gzip -9 -k tree.tar
gzip -l tree.tar.gz
mv tree.tar plain.tar
gunzip tree.tar.gz
cmp tree.tar plain.tar
gzip -c src/c/blob.bin | gunzip -c | sha256sum
set +e
gunzip -t bad.gz 2>/dev/null
echo "gunzip of a damaged file: $?"
exit 3'
check_eq 3 "$(cat "$T/traced.status")" "exit status of the script"
# tar read the 300000-byte blob (and 40 text files) through POSIX reads.
check_gt "$(logs_total POSIX_BYTES_READ)" 300000 "bytes read in the logs"
finish
