#!/bin/sh
# h5dump of an HDF5 file (made by h5import beforehand), traced and
# untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need h5dump h5import

# HDF5 stamps the time into the objects it creates, so the file is made
# once, before both runs, and copied into each.
mkdir "$T/src"
(
    cd "$T/src" || exit 1
    seq 1 600 >values.txt
    printf 'PATH /grid/values\nINPUT-CLASS TEXTIN\nRANK 2\nDIMENSION-SIZES 20 30\nOUTPUT-CLASS IN\nOUTPUT-SIZE 32\n' \
        >values.cfg
    h5import values.txt -c values.cfg -o data.h5 >/dev/null
) || fail "h5import"
make_h5() {
    cp "$T/src/values.txt" "$T/src/values.cfg" "$T/src/data.h5" .
}
transparent "h5dump" make_h5 '
h5dump data.h5 | sha256sum
h5dump -H data.h5
h5dump -d /grid/values -s "2,3" -c "2,4" data.h5
h5dump -d /grid/values -b LE -o values.bin data.h5 >/dev/null
h5dump -d /no/such data.h5 >/dev/null 2>&1
echo "missing dataset: $?"'
check_gt "$(logs_total POSIX_BYTES_READ)" 2399 "bytes read in the logs"
finish
