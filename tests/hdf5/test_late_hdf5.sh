#!/bin/sh
# HDF5 libraries loaded after the start, into local scopes (dlopen with
# RTLD_LOCAL, as Python loads h5py): late_h5_host.c loads modules linked
# against libhdf5_serial and the build's MPI's parallel libhdf5
# (libhdf5_mpich or libhdf5_openmpi; late_h5_plugin.c).
#   - A wrapper called with no HDF5 library in the process fails the call
#     (it never finds and calls itself: lib/core/symbol_lookup.h), and finds
#     the library once one is loaded.
#   - One library: traced exactly, with IOLENS_DISABLE=1 and
#     IOLENS_DISABLE_LAYERS=hdf5 untraced, never hung.
#   - Two libraries: the program runs as it does untraced; the first
#     library a call came for is traced, the other passes untraced.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
iolens_setup
unset LD_PRELOAD

FLAVOUR=$(mpi_flavour)
PAR_PC=hdf5-$FLAVOUR
if ! pkg-config --exists "$PAR_PC"; then
    echo "SKIP: no $PAR_PC development files (pkg-config)"
    exit 77
fi
SERIAL_LIB=$(/sbin/ldconfig -p | awk '/libhdf5_serial\.so\.103 /{ print $NF; exit }')
if [ -z "$SERIAL_LIB" ]; then
    echo "SKIP: no libhdf5_serial.so.103"
    exit 77
fi

# The serial library has no development files here: the plugin is
# compiled with the parallel build's header (the same 1.10 API) and linked
# to the serial library by path.
CC=${IOLENS_CC:-cc}
SRC=$IOLENS_SRCDIR/tests/hdf5
HOST=$T/late_h5_host
SERIAL=$T/plugin_serial.so
PARALLEL=$T/plugin_$FLAVOUR.so
# shellcheck disable=SC2046  # pkg-config prints separate words
if ! "$CC" -Wall -Wextra -Werror "$SRC/late_h5_host.c" -o "$HOST" -ldl ||
    ! "$CC" -Wall -Wextra -Werror -shared -fPIC "$SRC/late_h5_plugin.c" \
        $(pkg-config --cflags "$PAR_PC") "$SERIAL_LIB" -o "$SERIAL" ||
    ! "$CC" -Wall -Wextra -Werror -shared -fPIC "$SRC/late_h5_plugin.c" \
        $(pkg-config --cflags --libs "$PAR_PC") -o "$PARALLEL"; then
    fail "compiling tests/hdf5/late_h5_host.c and late_h5_plugin.c"
    finish
fi
check_eq "" "$(readelf -d "$HOST" | grep 'NEEDED.*hdf5')" "HDF5 libraries the host is linked to"
check_eq 1 "$(readelf -d "$SERIAL" | grep -c 'NEEDED.*libhdf5_serial')" "the serial plugin's libhdf5"
check_eq 1 "$(readelf -d "$PARALLEL" | grep -c "NEEDED.*libhdf5_$FLAVOUR")" "the $FLAVOUR plugin's libhdf5"

# run NAME [VAR=VALUE...] -- PLUGIN...: runs the host traced, as a plain
# process, in $T/NAME; sets RUN, DATA (the files' prefix) and RC.
run() {
    RUN=$T/$1
    shift
    mkdir -p "$RUN/data" "$RUN/logs"
    DATA=$RUN/data/f
    envs=
    while [ "$1" != "--" ]; do
        envs="$envs $1"
        shift
    done
    shift
    # shellcheck disable=SC2086  # envs: assignments without blanks
    env $envs LD_PRELOAD="$IOLENS_LIB" IOLENS_NONMPI=1 IOLENS_LOGDIR="$RUN/logs" \
        timeout 60 "$HOST" "$DATA" "$@" >"$RUN/out" 2>"$RUN/err"
    RC=$?
}

take_log() {
    set -- "$RUN"/logs/*late_h5_host*.iolens
    check_eq 1 "$#" "logs of the host ($RUN)"
    LOG=$1
    require_log "$LOG"
}


# ----------------------------------------------------- one library --
mkdir -p "$T/plain/data"
"$HOST" "$T/plain/data/f" "$SERIAL" >"$T/plain.out" 2>"$T/plain.err"
check_eq 0 "$?" "exit status untraced"
check_eq "late_h5_run: 10000 values written and read back" "$(cat "$T/plain.out")" "output untraced"

# Untraced first (a wrapper that found itself looped for ever even so).
for setting in IOLENS_DISABLE=1 IOLENS_DISABLE_LAYERS=hdf5; do
    run "off.${setting%%=*}" "$setting" -- "$SERIAL"
    check_eq 0 "$RC" "exit status with $setting (124: hung)"
    check_eq "$(cat "$T/plain.out")" "$(cat "$RUN/out")" "output with $setting"
done
check_eq "" "$(ls "$T/off.IOLENS_DISABLE/logs")" "logs with IOLENS_DISABLE=1"

run serial -- "$SERIAL"
check_eq 0 "$RC" "exit status traced (3: the wrapper without a library did not fail; 4: it did not find the library later; 124: hung; 139: crashed)"
check_eq "$(cat "$T/plain.out")" "$(cat "$RUN/out")" "output traced"
check_eq "" "$(cat "$RUN/err")" "stderr traced"
take_log
# The plugin creates, writes, closes, opens and reads; the host's own
# H5Fopen after the plugin is the second open (the first, with no
# library yet, failed and is not counted).  H5F_OPENS counts the create
# too, as Darshan's does: 1 + 2.
expect_counters "$LOG" "$DATA.1" <<END
H5F_CREATES 1
H5F_OPENS 3
END
expect_counters "$LOG" "$DATA.1:/d" <<END
H5D_OPENS 2
H5D_WRITES 1
H5D_READS 1
H5D_BYTES_WRITTEN 80000
H5D_BYTES_READ 80000
H5D_CHUNK_NDIMS 2
H5D_CHUNK_DIM1 10
H5D_CHUNK_DIM2 10
END

# IOLENS_DISABLE_LAYERS=hdf5: the HDF5 calls pass, the POSIX ones are traced.
RUN=$T/off.IOLENS_DISABLE_LAYERS
DATA=$RUN/data/f
take_log
check_eq 0 "$(records_of "$LOG" "$DATA.1" H5F)" "H5F records with IOLENS_DISABLE_LAYERS=hdf5"
check_eq 0 "$(records_of "$LOG" "$DATA.1:/d" H5D)" "H5D records with IOLENS_DISABLE_LAYERS=hdf5"
check_eq 1 "$(records_of "$LOG" "$DATA.1" POSIX)" "POSIX records with IOLENS_DISABLE_LAYERS=hdf5"

# ---------------------------------------------------- two libraries --
# Each order: the first library is traced; the file of the other has its
# POSIX record (the library's own I/O) and no HDF5 record.
for order in serial_$FLAVOUR ${FLAVOUR}_serial; do
    case $order in
        serial_*) set -- "$SERIAL" "$PARALLEL" ;;
        *) set -- "$PARALLEL" "$SERIAL" ;;
    esac
    mkdir -p "$T/plain.$order/data"
    "$HOST" "$T/plain.$order/data/f" "$@" >"$T/plain.$order.out" 2>&1
    check_eq 0 "$?" "exit status untraced ($order)"
    run "$order" -- "$@"
    check_eq 0 "$RC" "exit status traced ($order; 139: crashed)"
    check_eq "$(cat "$T/plain.$order.out")" "$(cat "$RUN/out")" "output traced ($order)"
    check_eq "" "$(cat "$RUN/err")" "stderr traced ($order)"
    take_log
    expect_counters "$LOG" "$DATA.1" <<END
H5F_CREATES 1
H5F_OPENS 3
END
    expect_counters "$LOG" "$DATA.1:/d" <<END
H5D_BYTES_WRITTEN 80000
H5D_BYTES_READ 80000
END
    check_eq 0 "$(records_of "$LOG" "$DATA.2" H5F)" "H5F records of the second library's file ($order)"
    check_eq 0 "$(records_of "$LOG" "$DATA.2:/d" H5D)" "H5D records of the second library's file ($order)"
    check_eq 1 "$(records_of "$LOG" "$DATA.2" POSIX)" "POSIX records of the second library's file ($order)"
    check_le 80000 "$(counter "$LOG" "$DATA.2" POSIX_BYTES_WRITTEN)" \
        "POSIX bytes written to the second library's file ($order)"
done
finish
