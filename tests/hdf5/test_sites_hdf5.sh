#!/bin/sh
# Call sites beneath HDF5 (sites_h5_prog.c): the POSIX writes HDF5 makes
# under H5Dwrite (the 256 KiB of raw data), H5Fcreate and the closes all
# belong to the program's lines that made those calls, none to a line
# inside libhdf5, with every write and byte of the file accounted for.
# addr2line (binutils) is the oracle of the lines when the parser has no
# libdw.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/hdf5_common.sh"
hdf5_setup
command -v addr2line >/dev/null 2>&1 || { echo "SKIP: needs addr2line"; exit 77; }
SRC=$IOLENS_SRCDIR/tests/hdf5/sites_h5_prog.c
PROG=$T/sites_h5_prog
h5pcc=h5pcc.$(mpi_flavour)
if command -v "$h5pcc" >/dev/null 2>&1; then
    # In the program's directory: h5pcc leaves NAME.o in the current one.
    (cd "$(dirname "$PROG")" && "$h5pcc" -shlib -g -O0 "$SRC" -o "$PROG") ||
        { fail "compiling sites_h5_prog.c"; finish; }
else
    # shellcheck disable=SC2046  # pkg-config prints separate words
    "$IOLENS_MPICC" -g -O0 "$SRC" $(pkg-config --cflags --libs "$(hdf5_pc)") -o "$PROG" ||
        { fail "compiling sites_h5_prog.c"; finish; }
fi

line_of() {
    echo "sites_h5_prog.c:$(grep -n "SITE $1 \*/" "$SRC" | cut -d: -f1)"
}
line_in() {
    case $1 in
    *+0x*)
        off=${1##*+0x}
        addr2line -e "${1%+0x*}" "$(printf '0x%x' $((0x$off - 1)))" 2>/dev/null |
            sed 's/ (discriminator.*//; s|.*/||'
        ;;
    *) echo "$1" | sed 's/^[^(]*(//; s/)$//; s|.*/||' ;;
    esac
}

log=$T/h5.iolens
run_traced "$log" "$PROG" "$T/x.h5" || fail "sites_h5_prog exited with $?"
require_log "$log"
"$IOLENS_PARSER" --sites "$log" | awk -F'\t' -v f="$T/x.h5" '$1 == "POSIX" && $7 == f' >"$T/sites"
check_eq 3 "$(wc -l <"$T/sites")" "sites of the HDF5 file's POSIX writes"
: >"$T/lines"
while IFS='	' read -r layer rank bytes ops time site file; do
    echo "$(line_in "$site") $bytes $ops" >>"$T/lines"
done <"$T/sites"
check_eq "$(line_of h5dwrite) 262144 1" "$(grep "^$(line_of h5dwrite) " "$T/lines")" \
    "the raw data written beneath H5Dwrite"
check_eq 1 "$(grep -c "^$(line_of create) " "$T/lines")" "a site at H5Fcreate's line"
check_eq 1 "$(grep -c "^$(line_of close) " "$T/lines")" "a site at the closes' line"
check_eq "$(counter "$log" "$T/x.h5" POSIX_BYTES_WRITTEN)" \
    "$(awk '{ s += $2 } END { print s }' "$T/lines")" "bytes of the sites"
check_eq "$(counter "$log" "$T/x.h5" POSIX_WRITES)" \
    "$(awk '{ s += $3 } END { print s }' "$T/lines")" "writes of the sites"
finish
