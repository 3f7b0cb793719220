#!/bin/sh
# An mpi4py program (mpi4py_prog.py) at 4 ranks under Open MPI: it runs
# as it does untraced, leaves one log with nprocs 4, and the MPI-IO
# layer counts its bytes exactly: rank r writes and reads 4096 * (r + 1)
# bytes, 40960 in all each way, which is also the file's size.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/mpiio_common.sh"
. "$(dirname "$0")/python_mpi_common.sh"
python_mpi_setup mpi4py
PROG=$IOLENS_SRCDIR/tests/mpi/mpi4py_prog.py

run_python 4 plain "$PROG" "$T/plain/data"
check_eq 0 "$(cat "$T/plain.rc")" "exit status untraced"
check_eq "mpi4py: 4 ranks wrote and read 40960 bytes, read back" "$(cat "$T/plain.out")" \
    "output untraced"
check_eq 40960 "$(wc -c <"$T/plain/data/shared" | tr -d ' ')" "size of the file untraced"

run_python 4 traced "$PROG" "$T/traced/data"
check_eq 0 "$(cat "$T/traced.rc")" "exit status traced"
check_eq "$(cat "$T/plain.out")" "$(cat "$T/traced.out")" "output traced"
check_eq "$(cat "$T/plain.err")" "$(cat "$T/traced.err")" "stderr traced (as untraced)"
check_eq 40960 "$(wc -c <"$T/traced/data/shared" | tr -d ' ')" "size of the file traced"
check_eq 1 "$(find "$T/traced/logs" -name '*.iolens' | wc -l | tr -d ' ')" "logs of the job"
LOG=$(find "$T/traced/logs" -name '*.iolens' | head -n 1)
require_log "$LOG"
check_eq 4 "$(header "$LOG" nprocs)" "nprocs"
F=$T/traced/data/shared
check_eq 40960 "$(sum_counter "$LOG" "$F" MPIIO_BYTES_WRITTEN)" "MPI-IO bytes written"
check_eq 40960 "$(sum_counter "$LOG" "$F" MPIIO_BYTES_READ)" "MPI-IO bytes read"
check_eq 4 "$(sum_counter "$LOG" "$F" MPIIO_COLL_WRITES)" "collective writes (one a rank)"
check_eq 4 "$(sum_counter "$LOG" "$F" MPIIO_INDEP_READS)" "independent reads (one a rank)"
check_le 40960 "$(sum_counter "$LOG" "$F" POSIX_BYTES_WRITTEN)" "POSIX bytes written below MPI-IO"

# Traced from its start (IOLENS_NONMPI=1) before mpi4py loads MPI, as a
# singleton: the MPI-IO layer, which has no tables in a process without
# MPI, takes them at the first MPI_File_open and counts the file's
# accesses as the program reports them (one rank: 4096 bytes each way).
mkdir -p "$T/late/logs" "$T/late/data"
IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/late/logs" LD_PRELOAD="$IOLENS_LIB" \
    "$PYTHON" "$PROG" "$T/late/data" >"$T/late.out" 2>"$T/late.err"
check_eq 0 "$?" "exit status, traced before MPI was loaded"
check_eq "mpi4py: 1 ranks wrote and read 4096 bytes, read back" "$(cat "$T/late.out")" \
    "output, traced before MPI was loaded"
# Open MPI's singleton starts an orted, traced too (IOLENS_NONMPI=1),
# whose log may sit beside the program's: the program's is the one log
# with the file's MPI-IO record.
F=$T/late/data/shared
LATE=
holders=0
for log in $(find "$T/late/logs" -name '*.iolens'); do
    require_log "$log"
    if [ "$(sum_counter "$log" "$F" MPIIO_INDEP_OPENS)" != "<none>" ]; then
        LATE=$log
        holders=$((holders + 1))
    fi
done
check_eq 1 "$holders" "late MPI: logs with the file's MPI-IO record"
check_eq 4096 "$(sum_counter "$LATE" "$F" MPIIO_BYTES_WRITTEN)" "late MPI: MPI-IO bytes written"
check_eq 4096 "$(sum_counter "$LATE" "$F" MPIIO_BYTES_READ)" "late MPI: MPI-IO bytes read"
check_eq 1 "$(sum_counter "$LATE" "$F" MPIIO_COLL_WRITES)" "late MPI: collective writes"
check_eq 1 "$(sum_counter "$LATE" "$F" MPIIO_INDEP_READS)" "late MPI: independent reads"
finish
