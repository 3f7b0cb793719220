#!/bin/sh
# POSIX asynchronous I/O: glibc does it on threads of its own by calls no
# wrapper sees, so before aio_read, aio_write, lio_listio and aio_return
# were wrapped, none of it was counted (MPICH's nonblocking MPI-IO, which
# uses them, showed 0 POSIX writes).  See prog_aio.c for the calls.
. "$(dirname "$0")/common.sh"
iolens_setup

log=$T/x.iolens
run_traced "$log" "$PROGS/prog_aio" "$T/file" "$T/many" ||
    fail "prog_aio exited with status $?"
require_log "$log"

# 8 writes of 100 and 3 of 10 (the lio_listio's LIO_NOP is none; the
# first write's second aio_return counts nothing); reads of 100 and 50
# (end of file); the read through the write-only descriptor failed and
# counts no read.
expect_counters "$log" "$T/file" <<END
POSIX_OPENS 2
POSIX_WRITES 11
POSIX_BYTES_WRITTEN 830
POSIX_MAX_BYTE_WRITTEN 829
POSIX_READS 2
POSIX_BYTES_READ 150
POSIX_MAX_BYTE_READ 799
POSIX_SIZE_WRITE_0_100 11
POSIX_SIZE_READ_0_100 2
END
# 400 requests in flight at once: more than the table of notes holds
# (aio_requests.h); those beyond it count at their submission.
expect_counters "$log" "$T/many" <<END
POSIX_OPENS 1
POSIX_WRITES 400
POSIX_BYTES_WRITTEN 400
POSIX_MAX_BYTE_WRITTEN 399
END
# Each write takes time from its submission to its aio_return.
check_gt "$(counter "$log" "$T/file" POSIX_F_WRITE_TIME)" 0 "POSIX_F_WRITE_TIME of $T/file"

# Oracle: strace -y, the successful pread64 and pwrite64 calls glibc's
# threads made on each file, and their bytes.
if command -v strace >/dev/null 2>&1; then
    strace -f -y -qq -e trace=pread64,pwrite64 -o "$T/strace" \
        "$PROGS/prog_aio" "$T/file2" "$T/many2" || fail "prog_aio under strace exited with status $?"
    calls() {
        awk -v c="$1" -v p="$2" '
            index($0, c "(") && index($0, "<" p ">,") && match($0, /= [0-9]+$/) {
                n++; b += substr($0, RSTART + 2) }
            END { printf "%d %d\n", n, b }' "$T/strace"
    }
    check_eq "$(calls pwrite64 "$T/file2")" \
        "$(counter "$log" "$T/file" POSIX_WRITES) $(counter "$log" "$T/file" POSIX_BYTES_WRITTEN)" \
        "writes and bytes of the file against strace"
    check_eq "$(calls pread64 "$T/file2")" \
        "$(counter "$log" "$T/file" POSIX_READS) $(counter "$log" "$T/file" POSIX_BYTES_READ)" \
        "reads and bytes of the file against strace"
    check_eq "$(calls pwrite64 "$T/many2")" \
        "$(counter "$log" "$T/many" POSIX_WRITES) $(counter "$log" "$T/many" POSIX_BYTES_WRITTEN)" \
        "writes and bytes of many against strace"
fi
finish
