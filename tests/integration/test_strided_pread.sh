#!/bin/sh
# pread of 1 KiB at the start of every 4 KiB block: no consecutive reads,
# every read after the first sequential, and Darshan's stride, the gap
# after the previous read's last byte, 4096 - 1024 = 3072.
. "$(dirname "$0")/common.sh"
iolens_setup

data=$T/data
log=$T/x.iolens
head -c 262144 /dev/zero >"$data" || fail "cannot make the input"
run_traced "$log" "$PROGS/prog_strided_pread" "$data" || fail "prog_strided_pread exited with status $?"
require_log "$log"

align=$(fs_block_size "$T")
offsets=$(awk 'BEGIN { for (i = 0; i < 64; i++) printf "%d ", i * 4096 }')
expect_counters "$log" "$data" <<END
POSIX_OPENS 1
POSIX_READS 64
POSIX_WRITES 0
POSIX_MODE 0
POSIX_BYTES_READ 65536
POSIX_BYTES_WRITTEN 0
POSIX_MAX_BYTE_READ 259071
POSIX_MAX_BYTE_WRITTEN 0
POSIX_CONSEC_READS 0
POSIX_SEQ_READS 63
POSIX_RW_SWITCHES 0
POSIX_SIZE_READ_0_100 0
POSIX_SIZE_READ_100_1K 64
POSIX_SIZE_READ_1K_10K 0
POSIX_STRIDE_TOP_STATE 0
POSIX_STRIDE1_STRIDE 3072
POSIX_STRIDE1_COUNT 63
POSIX_STRIDE2_STRIDE 0
POSIX_STRIDE2_COUNT 0
POSIX_ACCESS1_ACCESS 1024
POSIX_ACCESS1_COUNT 64
POSIX_MEM_ALIGNMENT 8
POSIX_MEM_NOT_ALIGNED 32
POSIX_FILE_NOT_ALIGNED $(misaligned_count "$align" $offsets)
POSIX_MAX_READ_TIME_SIZE 1024
END

# The file was only opened, not created (POSIX_MODE 0, Darshan's "none").
check_eq 0 "$("$IOLENS_PARSER" --patterns "$log" | awk -F'\t' '$1 == "job" && $2 == "files_created" { print $3 }')" \
    "--patterns files_created of a file only read"

# The memory alignment is configurable: with 1, nothing is misaligned.
log1=$T/align1.iolens
run_traced "$log1" IOLENS_MEM_ALIGNMENT=1 "$PROGS/prog_strided_pread" "$data" ||
    fail "prog_strided_pread (alignment 1) exited with status $?"
require_log "$log1"
expect_counters "$log1" "$data" <<END
POSIX_MEM_ALIGNMENT 1
POSIX_MEM_NOT_ALIGNED 0
POSIX_READS 64
END
finish
