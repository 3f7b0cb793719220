#!/bin/sh
# HDF5's C++ API (h5cpp_prog.cc, built with the flavour's h5c++ -shlib):
# copies of a DataSet share one handle, each taking a reference, and each
# destructor closes it (H5Dclose), which only drops one reference.  The
# calls through the handle after such a close count: /d written twice and
# read twice, 8000 bytes each.  Before, the write after a copy's
# destructor and both reads went uncounted (1 write, 0 reads).
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
iolens_setup
unset LD_PRELOAD
if [ -z "${IOLENS_MPICC:-}" ]; then
    echo "SKIP: IOLENS_MPICC is not set (needs the MPI compiler, run through make check)"
    exit 77
fi
# Named with its flavour: plain h5c++ is whichever MPI the system chose.
H5CXX=h5c++.$(mpi_flavour)
if ! command -v "$H5CXX" >/dev/null 2>&1; then
    echo "SKIP: $H5CXX is not installed (libhdf5-$(mpi_flavour)-dev)"
    exit 77
fi
PROG=$T/h5cpp_prog
# In $T: h5c++ leaves its object file in the current directory.
(cd "$T" && "$H5CXX" -shlib -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/hdf5/h5cpp_prog.cc" \
    -o "$PROG") >"$T/cc.out" 2>&1
check_eq 0 "$?" "compiling h5cpp_prog.cc: $(cat "$T/cc.out")"

mkdir -p "$T/plain"
check_eq "sum 1500.0" "$("$PROG" "$T/plain/c.h5")" "output untraced"

mkdir -p "$T/data" "$T/logs"
F=$T/data/c.h5
out=$(timeout 60 env LD_PRELOAD="$IOLENS_LIB" IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs" \
    "$PROG" "$F" 2>"$T/err")
check_eq 0 "$?" "exit status traced (124: hung; 139: crashed)"
check_eq "sum 1500.0" "$out" "output traced"
check_eq "" "$(cat "$T/err")" "stderr traced"
set -- "$T"/logs/*.iolens
check_eq 1 "$#" "logs"
LOG=$1
require_log "$LOG"
expect_counters "$LOG" "$F:/d" <<END
H5D_OPENS 2
H5D_WRITES 2
H5D_READS 2
H5D_BYTES_WRITTEN 16000
H5D_BYTES_READ 16000
H5D_RW_SWITCHES 1
H5D_DATASPACE_DIM1 1000
H5D_DATATYPE_SIZE 8
END
expect_counters "$LOG" "$F" <<END
H5F_CREATES 1
H5F_OPENS 2
END
check_le "$(counter "$LOG" "$F:/d" H5D_F_READ_END_TIMESTAMP)" \
    "$(counter "$LOG" "$F:/d" H5D_F_CLOSE_END_TIMESTAMP)" "/d closed after its last read"
finish
