#!/bin/sh
# Collective MPI-IO to shared files at 1, 2 and 4 ranks: every rank does
# two write_at_all and one read_at_all of 8192 bytes on DATA/shared, then
# one write_ordered (100 bytes) and one write_shared (50 bytes) on
# DATA/ordered (mpiio_prog.c, mode coll).  At 1 rank the record is checked
# counter by counter; at 2 and 4 ranks the sums over the file's records,
# the log's totals, and the one reduced record per shared file the job's
# shutdown leaves.  Then split collectives.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/mpiio_common.sh"
mpiio_setup

run_mpiio 1 coll
expect_counters "$LOG" "$DATA/shared" <<END
MPIIO_INDEP_OPENS 1
MPIIO_COLL_OPENS 0
MPIIO_COLL_WRITES 2
MPIIO_COLL_READS 1
MPIIO_INDEP_WRITES 0
MPIIO_INDEP_READS 0
MPIIO_MODE 9
MPIIO_BYTES_WRITTEN 16384
MPIIO_BYTES_READ 8192
MPIIO_RW_SWITCHES 1
MPIIO_SIZE_WRITE_AGG_1K_10K 2
MPIIO_SIZE_READ_AGG_1K_10K 1
MPIIO_ACCESS1_ACCESS 8192
MPIIO_ACCESS1_COUNT 3
MPIIO_MAX_WRITE_TIME_SIZE 8192
MPIIO_MAX_READ_TIME_SIZE 8192
END
expect_counters "$LOG" "$DATA/ordered" <<END
MPIIO_INDEP_OPENS 1
MPIIO_COLL_WRITES 1
MPIIO_INDEP_WRITES 1
MPIIO_MODE 5
MPIIO_BYTES_WRITTEN 150
MPIIO_ACCESS1_ACCESS 100
MPIIO_ACCESS2_ACCESS 50
END

for n in 2 4; do
    run_mpiio "$n" coll
    while read -r name value; do
        check_eq "$value" "$(sum_counter "$LOG" "$DATA/shared" "$name")" "$name of shared, $n ranks"
    done <<END
MPIIO_COLL_OPENS $n
MPIIO_INDEP_OPENS 0
MPIIO_COLL_WRITES $((2 * n))
MPIIO_COLL_READS $n
MPIIO_INDEP_WRITES 0
MPIIO_BYTES_WRITTEN $((16384 * n))
MPIIO_BYTES_READ $((8192 * n))
MPIIO_SIZE_WRITE_AGG_1K_10K $((2 * n))
END
    while read -r name value; do
        check_eq "$value" "$(total "$LOG" "$name")" "total_$name, $n ranks"
    done <<END
MPIIO_COLL_OPENS $((2 * n))
MPIIO_INDEP_OPENS 0
MPIIO_COLL_WRITES $((3 * n))
MPIIO_INDEP_WRITES $n
MPIIO_COLL_READS $n
MPIIO_BYTES_WRITTEN $((16534 * n))
MPIIO_BYTES_READ $((8192 * n))
MPIIO_SPLIT_WRITES 0
MPIIO_NB_WRITES 0
END
    # The job's shutdown reduces each shared file to one record.
    for file in shared ordered; do
        check_eq 1 "$(records_of "$LOG" "$DATA/$file" MPIIO)" "MPIIO records of $file, $n ranks"
        expect_counters "$LOG" "$DATA/$file" <<END
MPIIO_RANKS_OPENED $n
MPIIO_RANKS_IO $n
END
    done
    check_eq -1 "$(base_of "$LOG" | awk -F'\t' -v f="$DATA/shared" \
        '$1 == "MPIIO" && $6 == f { print $2; exit }')" "rank of the reduced record, $n ranks"
done

# ---------------------------------------------------- split collectives --
# write_at_all_begin ... 50 ms ... _end, read_all_begin ... 50 ms ... _end:
# counted at _begin, timed from the start of _begin to the end of _end.
run_mpiio 1 split
f=$DATA/split.0
expect_counters "$LOG" "$f" <<END
MPIIO_SPLIT_WRITES 2
MPIIO_SPLIT_READS 1
MPIIO_COLL_WRITES 0
MPIIO_COLL_READS 0
MPIIO_INDEP_WRITES 0
MPIIO_BYTES_WRITTEN 4106
MPIIO_BYTES_READ 4096
MPIIO_RW_SWITCHES 2
MPIIO_SIZE_WRITE_AGG_0_100 1
MPIIO_SIZE_WRITE_AGG_1K_10K 1
MPIIO_MAX_WRITE_TIME_SIZE 4096
MPIIO_MAX_READ_TIME_SIZE 4096
END
ts() { counter "$LOG" "$f" "MPIIO_F_$1"; }
check_at_least 0.049 "$(ts WRITE_TIME)" "MPIIO_F_WRITE_TIME"
check_at_least 0.049 "$(ts MAX_WRITE_TIME)" "MPIIO_F_MAX_WRITE_TIME"
check_at_least 0.049 "$(ts READ_TIME)" "MPIIO_F_READ_TIME"
check_le "$(ts WRITE_START_TIMESTAMP)" "$(ts READ_START_TIMESTAMP)" "split write starts first"
check_le "$(ts READ_END_TIMESTAMP)" "$(ts WRITE_END_TIMESTAMP)" "ordered split write ends last"
finish
