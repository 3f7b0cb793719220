#!/bin/sh
# A -D_FILE_OFFSET_BITS=64 build calls the *64 functions; offsets beyond
# 4 GiB must come through whole.
. "$(dirname "$0")/common.sh"
iolens_setup

prog=$PROGS/prog_lfs64
if ! command -v nm >/dev/null 2>&1; then
    echo "SKIP: nm is needed to check which symbols the build references"
    exit 77
fi
for sym in open64 pwrite64 pwritev64 pread64 lseek64 fstat64 stat64 ftruncate64 mmap64; do
    if nm -u "$prog" | awk '{ sub(/@.*/, "", $2); print $2 }' | grep -qx "$sym"; then
        pass
    else
        fail "prog_lfs64 does not reference $sym (was it built with -D_FILE_OFFSET_BITS=64?)"
    fi
done

a=$T/a
b=$T/b
log=$T/x.iolens
out=$(run_traced "$log" "$prog" "$a" "$b") || fail "prog_lfs64 exited with status $?"
require_log "$log"
# fstat and stat, plus __xstat64 and __fxstat64 where the program could
# call them (old binaries).
stats=2
[ "$out" = "old stat" ] && stats=4

# 4096 at 5 GiB, then 100+200 with pwritev at 0, then 300 read at 0.
# Darshan's rules: the first write starts past byte 0, the last byte
# before any write, so it is sequential (but has no stride: there was no
# previous write); nothing else is sequential or has a stride.
far=5368709120
expect_counters "$log" "$a" <<END
POSIX_OPENS 1
POSIX_MODE 384
POSIX_WRITES 2
POSIX_BYTES_WRITTEN 4396
POSIX_MAX_BYTE_WRITTEN $((far + 4095))
POSIX_READS 1
POSIX_BYTES_READ 300
POSIX_MAX_BYTE_READ 299
POSIX_CONSEC_WRITES 0
POSIX_SEQ_WRITES 1
POSIX_CONSEC_READS 0
POSIX_SEQ_READS 0
POSIX_RW_SWITCHES 1
POSIX_STRIDE1_STRIDE 0
POSIX_STRIDE1_COUNT 0
POSIX_STRIDE2_COUNT 0
POSIX_SEEKS 1
POSIX_STATS $stats
POSIX_FSYNCS 1
POSIX_FDSYNCS 1
POSIX_TRUNCATES 1
POSIX_MMAPS 1
POSIX_RENAME_SOURCES 1
POSIX_RENAME_TARGETS 0
POSIX_UNLINKS 0
END
expect_counters "$log" "$b" <<END
POSIX_OPENS 0
POSIX_RENAME_TARGETS 1
POSIX_UNLINKS 1
POSIX_WRITES 0
END
finish
