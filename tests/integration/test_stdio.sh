#!/bin/sh
# STDIO counters, exactly (see prog_stdio.c for the calls).
. "$(dirname "$0")/common.sh"
iolens_setup

main=$T/main
app=$T/append
fdo=$T/fdopened
log=$T/x.iolens
out=$(run_traced "$log" "$PROGS/prog_stdio" "$main" "$app" "$fdo" 2>"$T/err") ||
    fail "prog_stdio exited with status $?: $(cat "$T/err")"
check_eq "" "$(cat "$T/err")" "prog_stdio's complaints"
check_eq done "$out" "prog_stdio's output"
require_log "$log"

# Written: fwrite 100, fprintf 7, fputs 6.  Read from 0: fread 100,
# fscanf 2, fgets 5 and 6, fgets at end of file (0); fread 6 at 107.
expect_counters "$log" "$main" <<END
STDIO_OPENS 1
STDIO_WRITES 3
STDIO_BYTES_WRITTEN 113
STDIO_MAX_BYTE_WRITTEN 112
STDIO_FLUSHES 1
STDIO_SEEKS 3
STDIO_READS 6
STDIO_BYTES_READ 119
STDIO_MAX_BYTE_READ 112
END
# fsync(fileno(f)) reaches the POSIX record of the same file; the
# stream's own I/O happens inside libc and is not POSIX I/O of the app.
expect_counters "$log" "$main" <<END
POSIX_FSYNCS 1
POSIX_OPENS 0
POSIX_WRITES 0
POSIX_READS 0
END

# Two "a" opens, 10 bytes each: the second lands after the first.
expect_counters "$log" "$app" <<END
STDIO_OPENS 2
STDIO_WRITES 2
STDIO_BYTES_WRITTEN 20
STDIO_MAX_BYTE_WRITTEN 19
STDIO_READS 0
END

# open + fdopen: the stream takes the descriptor's file.  fclose closes
# the descriptor inside libc; a pipe that reuses its number must not be
# counted as the file's.
expect_counters "$log" "$fdo" <<END
STDIO_OPENS 1
STDIO_WRITES 1
STDIO_BYTES_WRITTEN 3
POSIX_OPENS 1
POSIX_WRITES 0
POSIX_READS 0
END

expect_counters "$log" "<STDOUT>" <<END
STDIO_WRITES 1
STDIO_BYTES_WRITTEN 5
STDIO_OPENS 0
END
check_eq 4 "$(total "$log" STDIO_OPENS)" "total_STDIO_OPENS"
check_eq 141 "$(total "$log" STDIO_BYTES_WRITTEN)" "total_STDIO_BYTES_WRITTEN"

# With the STDIO layer off, the same run has no STDIO record at all but
# keeps its POSIX ones.
log2=$T/nostdio.iolens
rm -f "$main" "$app" "$fdo"
run_traced "$log2" IOLENS_DISABLE_LAYERS=stdio "$PROGS/prog_stdio" "$main" "$app" "$fdo" >/dev/null ||
    fail "prog_stdio (stdio off) exited with status $?"
require_log "$log2"
check_eq 0 "$(base_of "$log2" | grep -c '^STDIO')" "STDIO lines with IOLENS_DISABLE_LAYERS=stdio"
check_eq 1 "$(counter "$log2" "$fdo" POSIX_OPENS)" "POSIX_OPENS of $fdo with stdio off"
finish
