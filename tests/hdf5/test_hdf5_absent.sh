#!/bin/sh
# Programs without HDF5 under the preload: they run with no error, write
# their log, and libhdf5 is never loaded (iolens resolves the HDF5 calls
# with dlsym, it is not linked to libhdf5).
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
iolens_setup
unset LD_PRELOAD

check_eq "" "$(ldd "$IOLENS_LIB" | grep -i hdf5)" "libiolens depends on libhdf5"

# A plain program, traced (IOLENS_NONMPI=1): its own memory map.
mkdir -p "$T/logs"
if ! env LD_PRELOAD="$IOLENS_LIB" IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs" \
    cat /proc/self/maps >"$T/maps" 2>"$T/err"; then
    fail "cat under the preload exited with an error"
fi
check_eq "" "$(cat "$T/err")" "stderr of cat under the preload"
check_gt "$(grep -c 'libiolens' "$T/maps")" 0 "libiolens mappings (the test reads the right map)"
check_eq 0 "$(grep -c 'libhdf5' "$T/maps")" "libhdf5 mappings in a program without HDF5"
check_eq 1 "$(ls "$T/logs" | wc -l)" "logs of cat"

# The loader's own account, for an MPI program without HDF5.
if [ -n "${IOLENS_MPICC:-}" ] && [ -n "${IOLENS_MPIEXEC:-}" ]; then
    cat >"$T/plain_mpi.c" <<'END'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    FILE *f = fopen(argv[1], "w");
    if (f == NULL || fputs("no hdf5 here\n", f) < 0 || fclose(f) != 0)
        return 1;
    MPI_Finalize();
    return 0;
}
END
    if ! "$IOLENS_MPICC" "$T/plain_mpi.c" -o "$T/plain_mpi"; then
        fail "compiling the MPI program"
        finish
    fi
    mkdir -p "$T/mpilogs"
    if ! LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld" mpi_run -n 1 \
        -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$T/mpilogs" \
        "$T/plain_mpi" "$T/out.txt" >"$T/mpiout" 2>"$T/mpierr"; then
        fail "the MPI program without HDF5 exited with an error: $(cat "$T/mpierr")"
    fi
    check_eq "" "$(cat "$T/mpierr")" "stderr of the MPI program"
    check_eq "no hdf5 here" "$(cat "$T/out.txt")" "the MPI program's output"
    check_gt "$(cat "$T"/ld.* | grep -c 'libiolens')" 0 "the loader trace shows libiolens"
    check_eq 0 "$(cat "$T"/ld.* | grep -c 'libhdf5')" "libhdf5 loaded by the MPI program"
    check_eq 1 "$(ls "$T/mpilogs" | wc -l)" "logs of the MPI program"
fi

finish
