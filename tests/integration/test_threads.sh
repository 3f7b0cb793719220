#!/bin/sh
# 4 threads do I/O at once on shared files and on one file each (see
# prog_threads.c): the counts must be exact, no update lost between threads.
. "$(dirname "$0")/common.sh"
iolens_setup

shared=$T/shared
log=$T/x.iolens
run_traced "$log" "$PROGS/prog_threads" "$shared" "$T/own" || fail "prog_threads exited with status $?"
require_log "$log"

# 4 x 2000 pwrites of 1 KiB, each thread in its own region; 4 x 20000
# reads of 0 bytes.
expect_counters "$log" "$shared" <<END
POSIX_OPENS 1
POSIX_WRITES 8000
POSIX_BYTES_WRITTEN 8192000
POSIX_MAX_BYTE_WRITTEN 8191999
POSIX_SIZE_WRITE_100_1K 8000
POSIX_READS 80000
POSIX_BYTES_READ 0
POSIX_SIZE_READ_0_100 80000
POSIX_ACCESS1_ACCESS 0
POSIX_ACCESS1_COUNT 80000
POSIX_ACCESS2_ACCESS 1024
POSIX_ACCESS2_COUNT 8000
END
# 4 x 2000 write()s of 100 bytes advancing one shared offset: each starts
# where another ended, so the tracked offsets cover the file exactly.
expect_counters "$log" "$shared.seq" <<END
POSIX_OPENS 1
POSIX_WRITES 8000
POSIX_BYTES_WRITTEN 800000
POSIX_MAX_BYTE_WRITTEN 799999
POSIX_SIZE_WRITE_0_100 8000
END
for t in 0 1 2 3; do
    expect_counters "$log" "$T/own.$t" <<END
POSIX_OPENS 1
POSIX_WRITES 2000
POSIX_BYTES_WRITTEN 1024000
POSIX_MAX_BYTE_WRITTEN 1023999
POSIX_CONSEC_WRITES 1999
POSIX_SEQ_WRITES 1999
POSIX_STRIDE1_STRIDE 512
POSIX_STRIDE1_COUNT 1999
POSIX_ACCESS1_COUNT 2000
END
done
check_eq 24000 "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES"
check_eq 13088000 "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN"
check_eq 80000 "$(total "$log" POSIX_READS)" "total_POSIX_READS"
check_eq 6 "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS"
finish
