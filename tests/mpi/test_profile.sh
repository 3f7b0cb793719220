#!/bin/sh
# Linking without LD_PRELOAD.
#  1. An MPI program built with the build tree's MPICH profile
#     (mpicc -profile=BUILDDIR/iolens-uninstalled) and run at 2 ranks with
#     no LD_PRELOAD and no IOLENS_NONMPI leaves exactly one log, with exact
#     POSIX, STDIO and MPI-IO counts.
#  2. The profile puts libiolens first among the program's libraries
#     (DT_NEEDED order), ahead of a -lhdf5 and -lmpich from the user's own
#     command line: the dynamic linker binds each symbol to the first
#     library that defines it, so this is what lets the wrappers win.
#  3. A plain C program linked with `pkg-config --libs iolens` (the flags
#     placed before the source file, the worst case for --as-needed) is
#     traced with IOLENS_NONMPI=1 and no LD_PRELOAD.
. "$(dirname "$0")/../integration/common.sh"
iolens_setup

for var in IOLENS_MPICC IOLENS_MPIEXEC IOLENS_BUILDDIR IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    if [ -z "$value" ]; then
        echo "SKIP: $var is not set (needs mpicc and mpiexec, run through make check)"
        exit 77
    fi
done
# -profile is a feature of MPICH's compiler wrappers.
if ! "$IOLENS_MPICC" -v 2>&1 | grep -q MPICH; then
    echo "SKIP: $IOLENS_MPICC is not MPICH's mpicc (no -profile)"
    exit 77
fi
PROFILE=$IOLENS_BUILDDIR/iolens-uninstalled
if [ ! -s "$PROFILE.conf" ]; then
    echo "FAIL: the build-tree profile $PROFILE.conf was not generated"
    exit 1
fi
unset LD_PRELOAD

# ------------------------------------------------ 1. mpicc -profile, MPI --
src=$IOLENS_SRCDIR/tests/mpi/prog_profile.c
if ! "$IOLENS_MPICC" -profile="$PROFILE" -Wall -Werror -c "$src" -o "$T/prog_profile.o"; then
    fail "compiling with -profile (compile-only must accept the profile's flags)"
    finish
fi
if ! "$IOLENS_MPICC" -profile="$PROFILE" "$T/prog_profile.o" -o "$T/prog_profile"; then
    fail "linking with -profile=$PROFILE"
    finish
fi

# Number of entries in a directory, hidden ones included.
files_in() {
    find "$1" -mindepth 1 | wc -l | tr -d ' '
}

# The libraries the program needs, in DT_NEEDED order, one per line.
needed() {
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}
# 1-based position of the first needed library matching the pattern.
needed_pos() {
    needed "$1" | awk -v p="$2" '$0 ~ p { print NR; exit }'
}
check_eq 1 "$(needed_pos "$T/prog_profile" '^libiolens[.]so')" "libiolens is the first DT_NEEDED"
check_gt "$(needed_pos "$T/prog_profile" '^libmpi')" 1 "libmpich is needed, after libiolens"

mkdir -p "$T/data" "$T/logs"
if ! IOLENS_LOGDIR="$T/logs" mpi_run -n 2 "$T/prog_profile" "$T/data"; then
    fail "prog_profile exited with an error"
fi
# One log, and nothing else (no temporary file) in the log directory.
check_eq 1 "$(files_in "$T/logs")" "files the job left in the log directory"
log=$(find "$T/logs" -name '*.iolens' | head -n 1)
require_log "${log:-$T/logs/none.iolens}"

check_eq 2 "$(header "$log" nprocs)" "nprocs in the header"
check_eq 1 "$(header "$log" nnodes)" "nnodes in the header"
for r in 0 1; do
    expect_counters "$log" "$T/data/posix.$r" <<END
POSIX_OPENS 1
POSIX_WRITES 2
POSIX_BYTES_WRITTEN 1024
POSIX_MAX_BYTE_WRITTEN 1023
POSIX_RANKS_OPENED 1
END
    expect_counters "$log" "$T/data/stdio.$r" <<END
STDIO_OPENS 1
STDIO_WRITES 3
STDIO_BYTES_WRITTEN 300
STDIO_MAX_BYTE_WRITTEN 299
STDIO_RANKS_OPENED 1
END
    # Each rank's record carries its MPI rank.
    check_eq "$r" "$(base_of "$log" | awk -F'\t' -v f="$T/data/posix.$r" \
        '$1 == "POSIX" && $6 == f { print $2; exit }')" "rank of posix.$r's record"
done
# 2 writes per rank to its own file, plus ROMIO's one pwrite per rank of
# the MPI_File_write_at to the shared file.
check_eq 6 "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES"
check_eq 10240 "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN"
check_eq 6 "$(total "$log" STDIO_WRITES)" "total_STDIO_WRITES"
check_eq 600 "$(total "$log" STDIO_BYTES_WRITTEN)" "total_STDIO_BYTES_WRITTEN"

# The shared file: one reduced record per layer, opened by both ranks.
shared=$T/data/mpiio.dat
check_eq 1 "$(records_of "$log" "$shared" POSIX)" "POSIX records of the shared file"
expect_counters "$log" "$shared" <<END
POSIX_BYTES_WRITTEN 8192
POSIX_RANKS_OPENED 2
POSIX_RANKS_IO 2
END
check_eq 1 "$(records_of "$log" "$shared" MPIIO)" "MPIIO records of the shared file"
expect_counters "$log" "$shared" <<END
MPIIO_COLL_OPENS 2
MPIIO_INDEP_WRITES 2
MPIIO_BYTES_WRITTEN 8192
MPIIO_SIZE_WRITE_AGG_1K_10K 2
MPIIO_RANKS_OPENED 2
MPIIO_RANKS_IO 2
END

# A program calling only functions that libiolens wraps: under gcc's
# --as-needed, -lmpich after libiolens would be dropped from it (and the
# program would run without MPI) unless the profile keeps it.
cat >"$T/only_wrapped.c" <<'EOF_C'
#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
EOF_C
if "$IOLENS_MPICC" -profile="$PROFILE" "$T/only_wrapped.c" -o "$T/only_wrapped"; then
    check_gt "$(needed_pos "$T/only_wrapped" '^libmpi')" 1 "libmpich kept for only-wrapped calls"
    mkdir -p "$T/logs2"
    IOLENS_LOGDIR="$T/logs2" mpi_run -n 1 "$T/only_wrapped" >"$T/ow.out" 2>&1 ||
        fail "only_wrapped exited with an error: $(cat "$T/ow.out")"
    check_eq "" "$(cat "$T/ow.out")" "only_wrapped's output (iolens complaints)"
    check_eq 1 "$(find "$T/logs2" -name '*.iolens' | wc -l | tr -d ' ')" "logs of the only_wrapped job"
else
    fail "linking only_wrapped.c with -profile"
fi

# ------------------------------------------- 2. order with the user's -lhdf5
if h5libs=$(pkg-config --libs hdf5-mpich 2>/dev/null); then
    # shellcheck disable=SC2086  # the flags are meant to split
    if "$IOLENS_MPICC" -profile="$PROFILE" "$T/prog_profile.o" $h5libs -o "$T/prog_h5"; then
        check_eq 1 "$(needed_pos "$T/prog_h5" '^libiolens[.]so')" "libiolens first with -lhdf5"
        check_gt "$(needed_pos "$T/prog_h5" '^libhdf5')" 1 "libhdf5 needed, after libiolens"
    else
        fail "linking with -profile and $h5libs"
    fi
else
    echo "note: pkg-config hdf5-mpich not found; HDF5 link order not checked"
fi

# ---------------------------------------------- 3. pkg-config --libs iolens
if ! libs=$(PKG_CONFIG_PATH=$IOLENS_BUILDDIR pkg-config --libs iolens); then
    fail "PKG_CONFIG_PATH=$IOLENS_BUILDDIR pkg-config --libs iolens"
    finish
fi
case $libs in
    *"$IOLENS_BUILDDIR/.libs"*) pass ;;
    *) fail "pkg-config --libs iolens does not point at the build tree: $libs" ;;
esac
# shellcheck disable=SC2086
if ! ${CC:-cc} $libs "$IOLENS_SRCDIR/tests/integration/prog_writes.c" -o "$T/prog_writes"; then
    fail "linking prog_writes with: $libs"
    finish
fi
check_eq 1 "$(needed_pos "$T/prog_writes" '^libiolens[.]so')" "pkg-config: libiolens needed"
plain_log=$T/plain.iolens
env IOLENS_NONMPI=1 IOLENS_LOGFILE="$plain_log" "$T/prog_writes" "$T/data/plain" ||
    fail "prog_writes exited with status $?"
require_log "$plain_log"
expect_counters "$plain_log" "$T/data/plain" <<END
POSIX_OPENS 1
POSIX_WRITES 1000
POSIX_BYTES_WRITTEN 4096000
END
# With mpicc, the flags placed after the program: -lmpich (which mpicc
# adds after them) must not be dropped.
# shellcheck disable=SC2086
if "$IOLENS_MPICC" "$T/only_wrapped.c" $libs -o "$T/only_wrapped_pc"; then
    check_eq 1 "$(needed_pos "$T/only_wrapped_pc" '^libiolens[.]so')" "pkg-config + mpicc: libiolens first"
    check_gt "$(needed_pos "$T/only_wrapped_pc" '^libmpi')" 1 "pkg-config + mpicc: libmpich kept"
else
    fail "linking only_wrapped.c with mpicc and: $libs"
fi
# Without the opt-in, a linked non-MPI program stays silent.
env IOLENS_LOGFILE="$T/silent.iolens" "$T/prog_writes" "$T/data/plain2" ||
    fail "prog_writes (no IOLENS_NONMPI) exited with status $?"
if [ -e "$T/silent.iolens" ]; then
    fail "a linked non-MPI program without IOLENS_NONMPI wrote a log"
else
    pass
fi
finish
