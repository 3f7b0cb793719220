#!/bin/sh
# netCDF-4 files (HDF5 underneath), as climate and weather codes make and
# read them: netCDF4-python (python3-netcdf4) writing a record variable a
# time step at a time, then reading it back; ncdump printing the file;
# nccopy copying it, plain and deflated.  The oracles are the programs'
# own outputs (the sums read back, ncdump's text, traced and untraced)
# and the data's sizes: v is STEPS x 100 float64, w 100 int32.
#
# netCDF-4 opens each object with H5Oopen, takes a second reference to a
# variable's dataset (H5Iinc_ref) and closes the H5Oopen handle, which
# only drops that reference; it reads through the handle until nc_close.
# Before iolens told such a close from a real one, every read of a file
# netCDF opened went uncounted (H5D_READS 0).
. "$(dirname "$0")/../integration/common.sh"
iolens_setup
unset LD_PRELOAD

# The system Python: the one on PATH may be another without netCDF4.
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c 'import netCDF4' >/dev/null 2>&1 || ! command -v ncdump >/dev/null 2>&1 ||
    ! command -v nccopy >/dev/null 2>&1; then
    echo "SKIP: needs $PYTHON with netCDF4 (python3-netcdf4), ncdump and nccopy (netcdf-bin)"
    exit 77
fi
PROG=$IOLENS_SRCDIR/tests/hdf5/netcdf_prog.py
STEPS=12
V_BYTES=$((STEPS * 100 * 8))
W_BYTES=$((100 * 4))
EXPECTED="v $STEPS steps, sum $((STEPS * 4950 + 100 * STEPS * (STEPS - 1) / 2)).0; w sum 4950"

mkdir -p "$T/plain"
"$PYTHON" "$PROG" "$T/plain/a.nc" "$STEPS" >"$T/plain.out" 2>"$T/plain.err"
check_eq 0 "$?" "exit status untraced"
check_eq "$EXPECTED" "$(cat "$T/plain.out")" "output untraced"
# ncdump's text but its first line (the file's name).
ncdump "$T/plain/a.nc" | sed 1d >"$T/plain.cdl"

# traced NAME COMMAND...: COMMAND under the preload in $T/NAME, whose
# data/ is its working directory; its one log in LOG (parsed), its output
# in $RUN/out.  RC 124: hung; 139: crashed.
traced() {
    RUN=$T/$1
    shift
    mkdir -p "$RUN/data" "$RUN/logs"
    (cd "$RUN/data" && timeout 120 env LD_PRELOAD="$IOLENS_LIB" IOLENS_NONMPI=1 \
        IOLENS_LOGDIR="$RUN/logs" "$@" >"$RUN/out" 2>"$RUN/err")
    RC=$?
    check_eq 0 "$RC" "exit status of $* (124: hung; 139: crashed)"
    check_eq "" "$(cat "$RUN/err")" "stderr of $*"
    set -- "$RUN"/logs/*.iolens
    check_eq 1 "$#" "logs ($RUN)"
    LOG=$1
    require_log "$LOG"
}

# netCDF4-python: v written one step (one row of 800 bytes) at a time and
# read whole; w written and read whole.  Each dataset is opened twice (its
# creation, the reopen to read) and closed at each nc_close.
traced python "$PYTHON" "$PROG" a.nc "$STEPS"
F=$RUN/data/a.nc
check_eq "$EXPECTED" "$(cat "$RUN/out")" "output traced"
expect_counters "$LOG" "$F:/v" <<END
H5D_OPENS 2
H5D_WRITES $STEPS
H5D_READS 1
H5D_BYTES_WRITTEN $V_BYTES
H5D_BYTES_READ $V_BYTES
H5D_RW_SWITCHES 1
H5D_DATASPACE_DIM1 $STEPS
H5D_DATASPACE_DIM2 100
H5D_DATATYPE_SIZE 8
END
expect_counters "$LOG" "$F:/w" <<END
H5D_OPENS 2
H5D_WRITES 1
H5D_READS 1
H5D_BYTES_WRITTEN $W_BYTES
H5D_BYTES_READ $W_BYTES
H5D_DATATYPE_SIZE 4
END
expect_counters "$LOG" "$F" <<END
H5F_CREATES 1
H5F_OPENS 2
END
# The last close of /v (nc_close of the reading) ends after its read.
check_le "$(counter "$LOG" "$F:/v" H5D_F_READ_END_TIMESTAMP)" \
    "$(counter "$LOG" "$F:/v" H5D_F_CLOSE_END_TIMESTAMP)" "/v closed after its read"
check_le "$(counter "$LOG" "$F:/v" H5D_F_READ_END_TIMESTAMP)" \
    "$(counter "$LOG" "$F" H5F_F_CLOSE_END_TIMESTAMP)" "a.nc closed after the read"

# ncdump: prints what it reads, as untraced; reads every byte of v and w.
cp "$T/plain/a.nc" "$T/a.nc"
traced ncdump ncdump "$T/a.nc"
F=$T/a.nc
check_eq "$(cat "$T/plain.cdl")" "$(sed 1d "$RUN/out")" "ncdump's output traced"
check_eq "$V_BYTES" "$(counter "$LOG" "$F:/v" H5D_BYTES_READ)" "ncdump: bytes read of /v"
check_eq "$W_BYTES" "$(counter "$LOG" "$F:/w" H5D_BYTES_READ)" "ncdump: bytes read of /w"
check_eq 0 "$(total "$LOG" H5D_WRITES)" "ncdump: H5D writes"

# nccopy, plain and deflated: every byte read from the source is written
# to the copy, which ncdump prints as the source.
for opts in "" "-d 1"; do
    # shellcheck disable=SC2086  # opts: nccopy's options, separate words
    traced "nccopy${opts:+_d1}" nccopy $opts "$T/a.nc" b.nc
    G=$RUN/data/b.nc
    for d in v w; do
        if [ "$d" = v ]; then n=$V_BYTES; else n=$W_BYTES; fi
        check_eq "$n" "$(counter "$LOG" "$F:/$d" H5D_BYTES_READ)" "nccopy $opts: bytes read of /$d"
        check_eq "$n" "$(counter "$LOG" "$G:/$d" H5D_BYTES_WRITTEN)" \
            "nccopy $opts: bytes written of /$d"
    done
    check_eq "$(cat "$T/plain.cdl")" "$(ncdump "$G" | sed 1d)" "the copy's contents (nccopy $opts)"
done
finish
