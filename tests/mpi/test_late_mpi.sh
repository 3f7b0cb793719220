#!/bin/sh
# An MPI library loaded after the start, into a local scope (dlopen with
# RTLD_LOCAL, as Python loads mpi4py): the program runs as it does
# untraced, MPI_Init finds the library anyway, tracing starts there, and
# the job leaves one log with every rank's I/O from MPI_Init on.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup

HOST=$T/late_mpi_host
PLUGIN=$T/late_mpi_plugin.so
# The host must not be linked against MPI: the plain C compiler.
if ! "${IOLENS_CC:-cc}" -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/mpi/late_mpi_host.c" \
    -o "$HOST" -ldl; then
    fail "compiling tests/mpi/late_mpi_host.c"
    finish
fi
if ! "$IOLENS_MPICC" -Wall -Wextra -Werror -shared -fPIC \
    "$IOLENS_SRCDIR/tests/mpi/late_mpi_plugin.c" -o "$PLUGIN"; then
    fail "compiling tests/mpi/late_mpi_plugin.c"
    finish
fi
if readelf -d "$HOST" | grep -q 'NEEDED.*mpi'; then
    fail "late_mpi_host is linked against an MPI library"
    finish
fi

# Untraced, for comparison.
mkdir -p "$T/untraced"
mpi_run -n 2 "$HOST" "$PLUGIN" "$T/untraced/out" >"$T/untraced.out" 2>"$T/untraced.err"
check_eq 0 "$?" "exit status of the untraced job"
check_eq 2000 "$(wc -c <"$T/untraced/out" | tr -d ' ')" "bytes the untraced job wrote"

for n in 1 2; do
    what="($n ranks)"
    mkdir -p "$T/run$n/logs"
    out=$T/run$n/out
    mpi_run -n $n -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$T/run$n/logs" \
        "$HOST" "$PLUGIN" "$out" >"$T/run$n/stdout" 2>"$T/run$n/stderr"
    check_eq 0 "$?" "exit status $what"
    check_eq "" "$(cat "$T/run$n/stderr")" "stderr $what"
    check_eq $((1000 * n)) "$(wc -c <"$out" | tr -d ' ')" "bytes of the shared file $what"
    check_eq 1 "$(logs_in "$T/run$n/logs")" "logs $what"
    LOG=$(first_in "$T/run$n/logs" '*.iolens')
    require_log "$LOG"
    check_eq "$n" "$(header "$LOG" nprocs)" "nprocs $what"
    # An open on a communicator of one rank is independent, else collective.
    opens=MPIIO_COLL_OPENS
    [ $n -eq 1 ] && opens=MPIIO_INDEP_OPENS
    expect_counters "$LOG" "$out" <<END
$opens $n
MPIIO_INDEP_WRITES $n
MPIIO_BYTES_WRITTEN $((1000 * n))
MPIIO_RANKS_OPENED $n
END
    check_eq $((1000 * n)) "$(counter "$LOG" "$out" POSIX_BYTES_WRITTEN)" \
        "POSIX bytes of the shared file (ROMIO's pwrite) $what"
    r=0
    while [ $r -lt $n ]; do
        check_eq 100 "$(counter "$LOG" "$out.$r" POSIX_BYTES_WRITTEN)" "POSIX bytes of out.$r $what"
        check_eq "$r" "$(base_of "$LOG" | awk -F'\t' -v f="$out.$r" '$6 == f { print $2; exit }')" \
            "out.$r attributed to rank $r $what"
        r=$((r + 1))
    done
    # Before MPI_Init there was no MPI library, so nothing was traced.
    check_eq 0 "$(records_of "$LOG" "$out.before")" "records of the file written before MPI_Init $what"
done
finish
