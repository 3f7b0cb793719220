#!/bin/sh
# Failing calls fail as they would without iolens (return value and
# errno: EBADF, ENOENT, EINVAL, ESPIPE, EAGAIN, and EINTR from a read
# interrupted by a handler installed without SA_RESTART), are not counted,
# short reads return what they read, and the exit status is the program's.
. "$(dirname "$0")/common.sh"
iolens_setup

printf '%0100d' 0 >"$T/data" || fail "cannot make the input"

# Untraced first: the program's own checks hold without iolens.
"$PROGS/prog_errno" "$T" 3 2>"$T/plain.err"
check_eq 3 $? "exit status without iolens"

log=$T/x.iolens
run_traced "$log" "$PROGS/prog_errno" "$T" 3 2>"$T/traced.err"
check_eq 3 $? "exit status under iolens"
check_eq "" "$(cat "$T/traced.err")" "prog_errno's complaints under iolens"
run_traced "$T/y.iolens" "$PROGS/prog_errno" "$T" 0 2>/dev/null
check_eq 0 $? "exit status 0 under iolens"
require_log "$log"

# Only the successful calls on data count: the first open's 100-byte
# read; then the short reads (prog_errno.c, check_short_reads): a second
# open, preads of 40, 0 and 0 bytes, an lseek, reads of 10 and 0 bytes.
# (The pipes of the short-read and EINTR checks are not files.)
expect_counters "$log" "$T/data" <<END
POSIX_OPENS 2
POSIX_READS 6
POSIX_BYTES_READ 150
POSIX_WRITES 0
POSIX_SEEKS 1
POSIX_TRUNCATES 0
POSIX_STATS 0
POSIX_RENAME_TARGETS 0
POSIX_DUPS 0
STDIO_OPENS 1
STDIO_READS 1
STDIO_BYTES_READ 100
STDIO_WRITES 0
END
check_eq 0 "$(records_of "$log" "$T/missing")" "records of a file that never existed"
check_eq 0 "$(total "$log" POSIX_FSYNCS)" "total_POSIX_FSYNCS"

# ... but every access on data is an access interval for BPS, the failed
# ones with the bytes they asked for: POSIX the 100-byte read, the failed
# 10-byte write and 10-byte pread, and the five short reads (50 bytes);
# STDIO the 100-byte fread and the failed 1-byte fputs (stdio's own read
# underneath is not interposed).
bps_row() { # LAYER METRIC
    "$IOLENS_PARSER" --bps "$log" | awk -v l="$1" -v m="$2" '$1 == l && $2 == "*" && $3 == m { print $4 }'
}
check_eq 8 "$(bps_row POSIX accesses)" "POSIX access intervals (2 failed)"
check_eq 170 "$(bps_row POSIX bytes)" "POSIX interval bytes (failed ones requested)"
check_eq 2 "$(bps_row STDIO accesses)" "STDIO access intervals (1 failed)"
check_eq 101 "$(bps_row STDIO bytes)" "STDIO interval bytes (failed one requested)"
finish
