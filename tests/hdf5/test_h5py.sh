#!/bin/sh
# h5py (the system Python's, python3-h5py-serial) under the preload.
# Python loads h5py's modules, and with them libhdf5_serial, with
# RTLD_LOCAL: the wrappers must find that library, never themselves.
# The program runs as it does untraced, within a timeout, traced or not
# (IOLENS_DISABLE=1, IOLENS_DISABLE_LAYERS=hdf5, an MPI-less process
# without IOLENS_NONMPI), and the traced run counts the 1000x1000
# float64 dataset exactly: 8,000,000 bytes each way.  Datasets made in
# h5py's usual way, f[name] = array (H5Dcreate_anon, H5Dwrite, then
# H5Olink names it), count under their names from their creation on; and
# h5py's handles, which it lets go with H5Idec_ref and never closes with
# H5Dclose or H5Fclose, are closed then: datasets leave the handle table,
# so that a program with more datasets than the table's 4096 slots is
# counted exactly, and files have their close times.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
iolens_setup
unset LD_PRELOAD

# The system Python: the one on PATH may be another without h5py.
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c 'import h5py' >/dev/null 2>&1; then
    echo "SKIP: $PYTHON has no h5py"
    exit 77
fi
PROG=$IOLENS_SRCDIR/tests/hdf5/h5py_prog.py

mkdir -p "$T/plain"
"$PYTHON" "$PROG" "$T/plain/d.h5" >"$T/plain.out" 2>"$T/plain.err"
check_eq 0 "$?" "exit status untraced"
check_eq "d: 1000x1000 float64, sum 500000000000.0; x, g/y and 0 more: read back" \
    "$(cat "$T/plain.out")" "output untraced"

# run NAME [VAR=VALUE...]: h5py_prog.py under the preload in $T/NAME,
# with $MANY more datasets (default 0); sets RUN, F (the HDF5 file) and RC
# (124: hung; 139: crashed).
run() {
    name=$1
    RUN=$T/$1
    shift
    mkdir -p "$RUN/data" "$RUN/logs"
    F=$RUN/data/d.h5
    env "$@" LD_PRELOAD="$IOLENS_LIB" IOLENS_LOGDIR="$RUN/logs" \
        timeout 120 "$PYTHON" "$PROG" "$F" "${MANY:-0}" >"$RUN/out" 2>"$RUN/err"
    RC=$?
    check_eq 0 "$RC" "exit status ($name; 124: hung; 139: crashed)"
    check_eq "d: 1000x1000 float64, sum 500000000000.0; x, g/y and ${MANY:-0} more: read back" \
        "$(cat "$RUN/out")" "output ($name)"
    check_eq "" "$(cat "$RUN/err")" "stderr ($name)"
}

take_log() {
    set -- "$RUN"/logs/*python3*.iolens
    check_eq 1 "$#" "logs of python3 ($RUN)"
    LOG=$1
    require_log "$LOG"
}

# Untraced first: before the wrappers looked for the library that
# Python loaded, these spun for ever (a wrapper calling itself in a loop).
run disabled IOLENS_NONMPI=1 IOLENS_DISABLE=1
check_eq "" "$(ls "$RUN/logs")" "logs with IOLENS_DISABLE=1"
# A process that never calls MPI_Init, without IOLENS_NONMPI: not traced.
run no_nonmpi

# Traced: the dataset's bytes are 1000 * 1000 * 8, in one write and one
# read; the file is created once and opened once (H5F_OPENS counts both,
# as Darshan's does).
run traced IOLENS_NONMPI=1
take_log
expect_counters "$LOG" "$F" <<END
H5F_CREATES 1
H5F_OPENS 2
END
# h5py closes its files with H5Idec_ref too: the last close ends after the
# last read, and its time is metadata time.
check_gt "$(counter "$LOG" "$F" H5F_F_CLOSE_START_TIMESTAMP)" 0 "H5F close start"
check_le "$(counter "$LOG" "$F:/d" H5D_F_READ_END_TIMESTAMP)" \
    "$(counter "$LOG" "$F" H5F_F_CLOSE_END_TIMESTAMP)" "H5F last close after the last read"
expect_counters "$LOG" "$F:/d" <<END
H5D_WRITES 1
H5D_READS 1
H5D_BYTES_WRITTEN $((1000 * 1000 * 8))
H5D_BYTES_READ $((1000 * 1000 * 8))
H5D_DATASPACE_DIM1 1000
H5D_DATASPACE_DIM2 1000
H5D_DATATYPE_SIZE 8
H5D_CHUNK_DIM1 100
H5D_CHUNK_DIM2 100
END
check_le $((1000 * 1000 * 8)) "$(counter "$LOG" "$F" POSIX_BYTES_WRITTEN)" \
    "POSIX bytes written below H5D"
# f["x"] = x: opened twice (the anonymous create, the open to read it),
# written and read once, each handle closed (by H5Idec_ref).
expect_counters "$LOG" "$F:/x" <<END
H5D_OPENS 2
H5D_WRITES 1
H5D_READS 1
H5D_BYTES_WRITTEN 8000
H5D_BYTES_READ 8000
H5D_DATASPACE_DIM1 1000
H5D_DATATYPE_SIZE 8
H5D_RW_SWITCHES 1
H5D_ACCESS1_ACCESS 8000
H5D_ACCESS1_COUNT 2
END
expect_counters "$LOG" "$F:/g/y" <<END
H5D_OPENS 2
H5D_WRITES 1
H5D_READS 1
H5D_BYTES_WRITTEN 200
H5D_BYTES_READ 200
H5D_DATASPACE_DIM1 50
H5D_DATATYPE_SIZE 4
END
for d in /d /x /g/y; do
    check_gt "$(counter "$LOG" "$F:$d" H5D_F_CLOSE_END_TIMESTAMP)" 0 "$d closed"
done
check_eq 0 "$(records_of "$LOG" "$F:<anonymous>" H5D)" "records of $F:<anonymous>"
check_eq 3 "$(awk -F'\t' '$1 == "H5D" { ids[$3] = 1 } END { n = 0; for (i in ids) n++; print n }' \
    "$LOG.base")" "H5D records"

# 5000 more datasets than that, made and read the same way: more handles
# than the dataset handle table's 4096 slots over the run.  At the
# default budget most fold into <other files>, and the totals are exact;
# at 64M each has its own record.
MANY=5000
run many IOLENS_NONMPI=1
take_log
check_eq 5003 "$(total "$LOG" H5D_WRITES)" "H5D writes of 5003 datasets (default budget)"
check_eq 5003 "$(total "$LOG" H5D_READS)" "H5D reads of 5003 datasets (default budget)"
check_eq 10006 "$(total "$LOG" H5D_OPENS)" "H5D opens of 5003 datasets (default budget)"
check_eq $((8000000 + 8000 + 200 + 5000 * 40)) "$(total "$LOG" H5D_BYTES_READ)" \
    "H5D bytes read (default budget)"
check_eq 0 "$(records_of "$LOG" "$F:<anonymous>" H5D)" "records of $F:<anonymous> (default budget)"
run many_64M IOLENS_NONMPI=1 IOLENS_MEMORY=64M
take_log
check_eq 0 "$(grep -c '^# folded opens: [1-9]' "$LOG.base")" "folded opens at 64M"
check_eq "5000 5000 5000 10000 200000" "$(awk -F'\t' '$1 == "H5D" && $6 ~ /:\/m[0-9]+$/ {
        if ($4 == "H5D_WRITES" && $5 == 1) w++
        if ($4 == "H5D_READS" && $5 == 1) r++
        if ($4 == "H5D_DATASPACE_DIM1" && $5 == 10) d++
        if ($4 == "H5D_OPENS") o += $5
        if ($4 == "H5D_BYTES_READ") b += $5
    } END { print w + 0, r + 0, d + 0, o + 0, b + 0 }' "$LOG.base")" \
    "datasets m0..m4999 at 64M: written once, read once, 10 elements; opens, bytes read"
MANY=0

# Cells of a MATLAB-v7.3-like cell array read through their object
# references (f[ref]): HDF5 knows no path for such a dataset and iolens
# does not make it search the file for one (with 4000 references that
# took the read from 0.3 s to 11 s); they count in <file>:<by reference>.
# Before, none of these reads was counted.
mkdir -p "$T/refs/logs"
R=$T/refs/cells.h5
out=$(timeout 120 env LD_PRELOAD="$IOLENS_LIB" IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/refs/logs" \
    "$PYTHON" "$IOLENS_SRCDIR/tests/hdf5/h5py_refs_prog.py" "$R" 500 2>"$T/refs/err")
check_eq 0 "$?" "exit status of h5py_refs_prog.py (124: hung; 139: crashed)"
check_eq "500 cells, sum $((10 * 499 * 500 / 2)).0" "$out" "output of h5py_refs_prog.py"
check_eq "" "$(cat "$T/refs/err")" "stderr of h5py_refs_prog.py"
RUN=$T/refs
take_log
expect_counters "$LOG" "$R:<by reference>" <<END
H5D_OPENS 500
H5D_READS 500
H5D_BYTES_READ $((500 * 80))
H5D_WRITES 0
END
check_eq $((500 * 80)) "$(awk -F'\t' '$1 == "H5D" && $4 == "H5D_BYTES_WRITTEN" &&
        $6 ~ /#refs#\/cell[0-9]+$/ { b += $5 } END { print b + 0 }' "$LOG.base")" \
    "H5D bytes written of the 500 cells, by name"

# Not the HDF5 layers: the calls still reach libhdf5.
run no_hdf5 IOLENS_NONMPI=1 IOLENS_DISABLE_LAYERS=hdf5
take_log
check_eq 0 "$(records_of "$LOG" "$F" H5F)" "H5F records with IOLENS_DISABLE_LAYERS=hdf5"
check_eq 0 "$(records_of "$LOG" "$F:/d" H5D)" "H5D records with IOLENS_DISABLE_LAYERS=hdf5"
check_eq 1 "$(records_of "$LOG" "$F" POSIX)" "POSIX records with IOLENS_DISABLE_LAYERS=hdf5"
finish
