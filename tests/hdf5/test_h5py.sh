#!/bin/sh
# h5py (the system Python's, python3-h5py-serial) under the preload.
# Python loads h5py's modules, and with them libhdf5_serial, with
# RTLD_LOCAL: the wrappers must find that library, never themselves.
# The program runs as it does untraced, within a timeout, traced or not
# (IOLENS_DISABLE=1, IOLENS_DISABLE_LAYERS=hdf5, an MPI-less process
# without IOLENS_NONMPI), and the traced run counts the 1000x1000
# float64 dataset exactly: 8,000,000 bytes each way.
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
check_eq "d: 1000x1000 float64, sum 500000000000.0, read back" "$(cat "$T/plain.out")" \
    "output untraced"

# run NAME [VAR=VALUE...]: h5py_prog.py under the preload in $T/NAME;
# sets RUN, F (the HDF5 file) and RC (124: hung; 139: crashed).
run() {
    name=$1
    RUN=$T/$1
    shift
    mkdir -p "$RUN/data" "$RUN/logs"
    F=$RUN/data/d.h5
    env "$@" LD_PRELOAD="$IOLENS_LIB" IOLENS_LOGDIR="$RUN/logs" \
        timeout 60 "$PYTHON" "$PROG" "$F" >"$RUN/out" 2>"$RUN/err"
    RC=$?
    check_eq 0 "$RC" "exit status ($name; 124: hung; 139: crashed)"
    check_eq "$(cat "$T/plain.out")" "$(cat "$RUN/out")" "output ($name)"
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

# Not the HDF5 layers: the calls still reach libhdf5.
run no_hdf5 IOLENS_NONMPI=1 IOLENS_DISABLE_LAYERS=hdf5
take_log
check_eq 0 "$(records_of "$LOG" "$F" H5F)" "H5F records with IOLENS_DISABLE_LAYERS=hdf5"
check_eq 0 "$(records_of "$LOG" "$F:/d" H5D)" "H5D records with IOLENS_DISABLE_LAYERS=hdf5"
check_eq 1 "$(records_of "$LOG" "$F" POSIX)" "POSIX records with IOLENS_DISABLE_LAYERS=hdf5"
finish
