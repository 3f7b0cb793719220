#!/bin/sh
# A Fortran MPI program (fortran_prog.f90, compiled with the build's MPI's
# mpif90) on 2 ranks, with MPI_Init and with MPI_Init_thread, and one
# through the mpi_f08 module (fortran_f08_prog.f90).  Open MPI's
# Fortran bindings call PMPI_Init, PMPI_File_open, PMPI_Wait ... directly,
# never the MPI_ names: the job must still have its one log, with the
# MPI-IO calls counted exactly, and the Fortran runtime's own reads and
# writes in the POSIX layer.  The program runs as it does untraced.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/mpiio_common.sh"
mpiio_setup

# mpif90 beside the build's mpicc: /usr/bin/mpicc.mpich -> mpif90.mpich.
MPIF90=$(dirname "$IOLENS_MPICC")/$(basename "$IOLENS_MPICC" | sed 's/^mpicc/mpif90/')
PROG=$T/fortran_prog
if ! "$MPIF90" -Wall "$IOLENS_SRCDIR/tests/mpi/fortran_prog.f90" -o "$PROG" >"$T/cc.out" 2>&1
then
    echo "SKIP: $MPIF90 cannot compile Fortran (gfortran missing?): $(head -n 3 "$T/cc.out")"
    exit 77
fi

# run NAME MODE [LD_PRELOAD]: $PROG on 2 ranks in $T/NAME; sets RUN.
# MODE "-" gives the program no mode argument.
run() {
    RUN=$T/$1
    mkdir -p "$RUN/data" "$RUN/logs"
    set -- "$1" "$2" "${3:-}"
    [ "$2" = - ] && set -- "$1" "" "$3"
    if [ -n "$3" ]; then
        mpi_run -n 2 -genv LD_PRELOAD "$3" -genv IOLENS_LOGDIR "$RUN/logs" \
            "$PROG" ${2:+"$2"} "$RUN/data" >"$RUN/out" 2>"$RUN/err"
    else
        mpi_run -n 2 "$PROG" ${2:+"$2"} "$RUN/data" >"$RUN/out" 2>"$RUN/err"
    fi
    echo $? >"$RUN/rc"
}

# The job's one log, parsed, in LOG (WHAT names the run).
job_log() {
    check_eq 0 "$(cat "$RUN/rc")" "exit status ($what)"
    check_eq "ok 2" "$(cat "$RUN/out")" "output ($what)"
    check_eq "" "$(cat "$RUN/err")" "stderr ($what)"
    check_eq 1 "$(find "$RUN/logs" -name '*.iolens' | wc -l | tr -d ' ')" "logs of the job ($what)"
    LOG=$(find "$RUN/logs" -name '*.iolens' | head -n 1)
    require_log "$LOG"
    check_eq 2 "$(header "$LOG" nprocs)" "nprocs ($what)"
    check_eq "<none>" "$(header "$LOG" incomplete)" "incomplete mark ($what)"
    F=$RUN/data/shared.dat
    check_eq 1 "$(records_of "$LOG" "$F" MPIIO)" "MPI-IO records of the shared file ($what)"
}

run plain init
check_eq 0 "$(cat "$RUN/rc")" "exit status untraced"
check_eq "ok 2" "$(cat "$RUN/out")" "output untraced"

for mode in init thread; do
    run "traced_$mode" "$mode" "$IOLENS_LIB"
    what="Fortran, $mode"
    job_log
    expect_counters "$LOG" "$F" <<END
MPIIO_COLL_OPENS 2
MPIIO_INDEP_WRITES 2
MPIIO_COLL_WRITES 2
MPIIO_NB_WRITES 2
MPIIO_COLL_READS 2
MPIIO_BYTES_WRITTEN 6144
MPIIO_BYTES_READ 2048
MPIIO_RANKS_OPENED 2
END
    for r in 0 1; do
        expect_counters "$LOG" "$RUN/data/rank$r.txt" <<END
POSIX_OPENS 1
POSIX_BYTES_WRITTEN 700
END
        expect_counters "$LOG" "$RUN/data/rank$r.bin" <<END
POSIX_OPENS 1
POSIX_BYTES_WRITTEN 1024
END
    done
done

# The mpi_f08 module (an MPI built without it skips this part, saying so).
PROG=$T/fortran_f08_prog
if "$MPIF90" -Wall "$IOLENS_SRCDIR/tests/mpi/fortran_f08_prog.f90" -o "$PROG" \
    >"$T/cc08.out" 2>&1; then
    run traced_f08 - "$IOLENS_LIB"
    what="Fortran, mpi_f08"
    job_log
    expect_counters "$LOG" "$F" <<END
MPIIO_COLL_OPENS 2
MPIIO_COLL_WRITES 2
MPIIO_NB_WRITES 2
MPIIO_INDEP_WRITES 0
MPIIO_BYTES_WRITTEN 4096
END
else
    echo "note: no mpi_f08 module with $MPIF90: $(head -n 3 "$T/cc08.out")"
fi
finish
