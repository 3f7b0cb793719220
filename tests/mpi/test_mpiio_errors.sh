#!/bin/sh
# Errors pass through unchanged (mpiio_prog.c, mode errors): opening a
# missing file without MPI_MODE_CREATE, and MPI_File_write/iwrite on a
# read-only handle, give the same error classes traced as untraced, and
# the failed calls are not counted.  Then IOLENS_DISABLE_LAYERS=mpiio.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/mpiio_common.sh"
mpiio_setup

mkdir -p "$T/untraced"
if ! mpi_run -n 1 "$MPIIO_PROG" errors "$T/untraced" >"$T/untraced.out"; then
    fail "mpiio_prog errors (untraced) exited with an error"
fi
run_mpiio 1 errors
class() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
for what in open_missing write_rdonly iwrite_rdonly; do
    check_eq "$(class "$T/untraced.out" $what)" "$(class "$OUT" $what)" "error class of $what"
    check_gt "$(class "$OUT" $what)" 0 "$what failed"
done
no_such_file=$(awk '$1 == "classes:" { print $3 }' "$OUT")
check_eq "$no_such_file" "$(class "$OUT" open_missing)" "open_missing is MPI_ERR_NO_SUCH_FILE"

check_eq 0 "$(records_of "$LOG" "$DATA/missing" MPIIO)" "MPIIO records of the missing file"
expect_counters "$LOG" "$DATA/ro.0" <<END
MPIIO_INDEP_OPENS 2
MPIIO_MODE 2
MPIIO_INDEP_WRITES 0
MPIIO_NB_WRITES 0
MPIIO_BYTES_WRITTEN 0
MPIIO_SIZE_WRITE_AGG_0_100 0
MPIIO_F_WRITE_TIME 0.000000
END

# The MPI-IO layer switched off: no MPIIO record, POSIX still traced.
run_mpiio 1 indep IOLENS_DISABLE_LAYERS=mpiio
check_eq 0 "$(records_of "$LOG" "$DATA/indep.0" MPIIO)" "MPIIO records with the layer off"
check_eq 1 "$(records_of "$LOG" "$DATA/indep.0" POSIX)" "POSIX records with MPI-IO off"
finish
