#!/bin/sh
# Nonblocking MPI-IO, timed to completion (mpiio_prog.c, mode nb).  Each
# DATA/nb_<how>.0 gets one iwrite_at of 4096 bytes, a 30 ms pause, then
# completion by <how>; the write time can only reach 30 ms if the layer
# saw the completion, since issuing takes microseconds.  nb_many: 300
# requests pending at once (more than the pending table holds: the
# overflow is timed at issue); nb_after: one more timed request after them,
# which shows the table emptied.  nb_kinds: every other nonblocking form.
# The POSIX layer counts what the MPI library wrote underneath.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/mpiio_common.sh"
mpiio_setup

run_mpiio 1 nb
for how in wait test waitall waitany waitsome testall testany testsome free; do
    f=$DATA/nb_$how.0
    expect_counters "$LOG" "$f" <<END
MPIIO_NB_WRITES 1
MPIIO_INDEP_WRITES 0
MPIIO_COLL_WRITES 0
MPIIO_BYTES_WRITTEN 4096
MPIIO_SIZE_WRITE_AGG_1K_10K 1
MPIIO_MAX_WRITE_TIME_SIZE 4096
END
    ts() { counter "$LOG" "$f" "MPIIO_F_$1"; }
    check_at_least 0.029 "$(ts WRITE_TIME)" "MPIIO_F_WRITE_TIME of nb_$how"
    check_at_least 0.029 "$(ts MAX_WRITE_TIME)" "MPIIO_F_MAX_WRITE_TIME of nb_$how"
    check_at_least 0.029 \
        "$(awk -v a="$(ts WRITE_START_TIMESTAMP)" -v b="$(ts WRITE_END_TIMESTAMP)" \
            'BEGIN { printf "%.6f", b - a }')" "issue-to-completion span of nb_$how"
done

f=$DATA/nb_wait.0
expect_counters "$LOG" "$f" <<END
MPIIO_NB_READS 1
MPIIO_INDEP_READS 0
MPIIO_BYTES_READ 4096
MPIIO_RW_SWITCHES 1
MPIIO_MAX_READ_TIME_SIZE 4096
END
check_at_least 0.029 "$(counter "$LOG" "$f" MPIIO_F_READ_TIME)" "MPIIO_F_READ_TIME of nb_wait"

expect_counters "$LOG" "$DATA/nb_many.0" <<END
MPIIO_NB_WRITES 300
MPIIO_BYTES_WRITTEN 2400
MPIIO_SIZE_WRITE_AGG_0_100 300
MPIIO_ACCESS1_ACCESS 8
MPIIO_ACCESS1_COUNT 300
MPIIO_ACCESS2_COUNT 0
MPIIO_MAX_WRITE_TIME_SIZE 8
END
# Underneath, the MPI library does the I/O of an independent nonblocking
# request through POSIX asynchronous I/O (MPICH's ROMIO, Open MPI's
# OMPIO), on threads no wrapper sees: counted at aio_return.
check_eq "1 4096 1 4096" "$(sum_counter "$LOG" "$DATA/nb_wait.0" POSIX_WRITES) \
$(sum_counter "$LOG" "$DATA/nb_wait.0" POSIX_BYTES_WRITTEN) \
$(sum_counter "$LOG" "$DATA/nb_wait.0" POSIX_READS) \
$(sum_counter "$LOG" "$DATA/nb_wait.0" POSIX_BYTES_READ)" \
    "POSIX writes, bytes written, reads and bytes read of nb_wait"
check_eq "300 2400" "$(sum_counter "$LOG" "$DATA/nb_many.0" POSIX_WRITES) \
$(sum_counter "$LOG" "$DATA/nb_many.0" POSIX_BYTES_WRITTEN)" \
    "POSIX writes and bytes written of nb_many"

# After them the table is empty again: the next request is timed to its
# completion, not at issue.
expect_counters "$LOG" "$DATA/nb_after.0" <<END
MPIIO_NB_WRITES 1
MPIIO_BYTES_WRITTEN 4096
END
check_at_least 0.029 "$(counter "$LOG" "$DATA/nb_after.0" MPIIO_F_WRITE_TIME)" \
    "MPIIO_F_WRITE_TIME of nb_after (the request after 300)"

expect_counters "$LOG" "$DATA/nb_kinds.0" <<END
MPIIO_NB_WRITES 4
MPIIO_NB_READS 4
MPIIO_INDEP_WRITES 0
MPIIO_COLL_WRITES 0
MPIIO_INDEP_READS 0
MPIIO_COLL_READS 0
MPIIO_BYTES_WRITTEN 400
MPIIO_BYTES_READ 400
MPIIO_RW_SWITCHES 1
MPIIO_ACCESS1_ACCESS 100
MPIIO_ACCESS1_COUNT 8
END
finish
