#!/bin/sh
# 1000 write()s of 4 KiB: every POSIX counter of the file is known exactly.
. "$(dirname "$0")/common.sh"
iolens_setup

data=$T/data
log=$T/x.iolens
run_traced "$log" "$PROGS/prog_writes" "$data" || fail "prog_writes exited with status $?"
require_log "$log"

align=$(fs_block_size "$T")
offsets=$(awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%d ", i * 4096 }')
expect_counters "$log" "$data" <<END
POSIX_OPENS 1
POSIX_READS 0
POSIX_WRITES 1000
POSIX_SEEKS 0
POSIX_STATS 0
POSIX_DUPS 0
POSIX_MODE 420
POSIX_BYTES_READ 0
POSIX_BYTES_WRITTEN 4096000
POSIX_MAX_BYTE_READ 0
POSIX_MAX_BYTE_WRITTEN 4095999
POSIX_CONSEC_WRITES 999
POSIX_SEQ_WRITES 999
POSIX_CONSEC_READS 0
POSIX_SEQ_READS 0
POSIX_RW_SWITCHES 0
POSIX_MEM_ALIGNMENT 8
POSIX_MEM_NOT_ALIGNED 0
POSIX_FILE_ALIGNMENT $align
POSIX_FILE_NOT_ALIGNED $(misaligned_count "$align" $offsets)
POSIX_SIZE_WRITE_0_100 0
POSIX_SIZE_WRITE_100_1K 0
POSIX_SIZE_WRITE_1K_10K 1000
POSIX_SIZE_WRITE_10K_100K 0
POSIX_SIZE_READ_1K_10K 0
POSIX_STRIDE_TOP_STATE 0
POSIX_STRIDE1_STRIDE 0
POSIX_STRIDE1_COUNT 0
POSIX_STRIDE2_COUNT 0
POSIX_ACCESS_TOP_STATE 0
POSIX_ACCESS1_ACCESS 4096
POSIX_ACCESS1_COUNT 1000
POSIX_ACCESS2_ACCESS 0
POSIX_ACCESS2_COUNT 0
POSIX_MAX_WRITE_TIME_SIZE 4096
POSIX_MAX_READ_TIME_SIZE 0
POSIX_F_READ_START_TIMESTAMP 0.000000
POSIX_F_READ_TIME 0.000000
END

# Timestamps in order, times positive and bounded by the run time.
ts() { counter "$log" "$data" "POSIX_F_$1"; }
check_le "$(ts OPEN_START_TIMESTAMP)" "$(ts OPEN_END_TIMESTAMP)" "open start <= open end"
check_le "$(ts OPEN_END_TIMESTAMP)" "$(ts WRITE_START_TIMESTAMP)" "open end <= first write"
check_le "$(ts WRITE_START_TIMESTAMP)" "$(ts WRITE_END_TIMESTAMP)" "first write <= last write"
check_le "$(ts WRITE_END_TIMESTAMP)" "$(ts CLOSE_START_TIMESTAMP)" "last write <= close"
check_le "$(ts CLOSE_START_TIMESTAMP)" "$(ts CLOSE_END_TIMESTAMP)" "close start <= close end"
check_gt "$(ts WRITE_TIME)" 0 "POSIX_F_WRITE_TIME"
check_gt "$(ts META_TIME)" 0 "POSIX_F_META_TIME"
check_le "$(ts MAX_WRITE_TIME)" "$(ts WRITE_TIME)" "slowest write <= all writes"
check_le "$(ts WRITE_TIME)" "$(header "$log" run_time)" "write time <= run time"

# Nothing else wrote; stdio was not used on the file.
check_eq 1000 "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES"
check_eq 4096000 "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN"
check_eq 0 "$(records_of "$log" "$data" STDIO)" "STDIO records of the file"
check_eq 1 "$(records_of "$log" "$data" POSIX)" "POSIX records of the file"
finish
