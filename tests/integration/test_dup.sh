#!/bin/sh
# dup, dup2, dup3 and fcntl(F_DUPFD*) share the offset; two opens of one
# file do not.  See prog_dup.c for the calls.
. "$(dirname "$0")/common.sh"
iolens_setup

data=$T/data
log=$T/x.iolens
mkdir "$T/home" "$T/other" || fail "cannot make directories"
(cd "$T/home" && run_traced "$log" "$PROGS/prog_dup" "$data" "$T/appended" "$T/other") ||
    fail "prog_dup exited with status $?"
require_log "$log"

align=$(fs_block_size "$T")
# Writes start at 0, 100, ..., 600; reads at 0, 0, 100, 100, 0, 700.
# Darshan's rules compare a read with the previous read of the file, by
# any descriptor, from last byte 0 after each open: the reads of a and b
# (ends 99, 99, 199, 199, 49) make one consecutive read (a's at 100 after
# a's 0..99) and two sequential ones (that one, and b's 0-byte read at
# 700 after byte 49, stride 700 - 49 - 1 = 650); the writes after the
# first are all consecutive, with gaps of 0 (no stride).  Reads of 0
# bytes are no access size.
misaligned=$(misaligned_count "$align" 0 100 200 300 400 500 600 0 0 100 100 0 700)
expect_counters "$log" "$data" <<END
POSIX_OPENS 3
POSIX_DUPS 5
POSIX_MODE 384
POSIX_WRITES 7
POSIX_BYTES_WRITTEN 700
POSIX_MAX_BYTE_WRITTEN 699
POSIX_CONSEC_WRITES 6
POSIX_SEQ_WRITES 6
POSIX_READS 6
POSIX_BYTES_READ 450
POSIX_MAX_BYTE_READ 199
POSIX_CONSEC_READS 1
POSIX_SEQ_READS 2
POSIX_SEEKS 3
POSIX_RW_SWITCHES 1
POSIX_SIZE_WRITE_0_100 7
POSIX_SIZE_READ_0_100 6
POSIX_STRIDE_TOP_STATE 0
POSIX_STRIDE1_STRIDE 650
POSIX_STRIDE1_COUNT 1
POSIX_STRIDE2_STRIDE 0
POSIX_STRIDE2_COUNT 0
POSIX_ACCESS_TOP_STATE 0
POSIX_ACCESS1_ACCESS 100
POSIX_ACCESS1_COUNT 11
POSIX_ACCESS2_ACCESS 50
POSIX_ACCESS2_COUNT 1
POSIX_ACCESS3_ACCESS 0
POSIX_ACCESS3_COUNT 0
POSIX_ACCESS4_COUNT 0
POSIX_FILE_NOT_ALIGNED $misaligned
END
check_eq 1 "$(records_of "$log" "$data")" "records of the file"

# O_APPEND writes land at the end whatever the descriptor's offset: 0, 10,
# 20 through two O_APPEND descriptors, 30 after fcntl(F_SETFL, O_APPEND);
# then 5 bytes at 40 (pwrite at offset 0 on O_APPEND), 45 and 50 (pwritev2
# with RWF_APPEND at 0 and at -1) and 55 (write after them).  Each write
# after the first starts right after the previous write to the file:
# consecutive by Darshan's rule (by any descriptor).
expect_counters "$log" "$T/appended" <<END
POSIX_OPENS 4
POSIX_WRITES 8
POSIX_BYTES_WRITTEN 60
POSIX_MAX_BYTE_WRITTEN 59
POSIX_CONSEC_WRITES 7
POSIX_SEQ_WRITES 7
POSIX_SEEKS 3
END
check_eq 60 "$(wc -c <"$T/appended")" "bytes of the appended file"

# Relative names are resolved against the working directory of the
# moment (chdir and fchdir are followed) or the directory descriptor.
for f in home/rel other/rel home/rel2 other/rel3; do
    check_eq 10 "$(counter "$log" "$T/$f" POSIX_BYTES_WRITTEN)" "POSIX_BYTES_WRITTEN of $T/$f"
done
check_eq 4 "$(base_of "$log" | awk -F'\t' '$4 == "POSIX_BYTES_WRITTEN" && $5 == 10' | wc -l)" \
    "records with the 10-byte writes"
finish
