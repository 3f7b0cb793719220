#!/bin/sh
# A -O2 -D_FORTIFY_SOURCE=2 build calls the checked entry points
# (__read_chk, __open_2, __fprintf_chk ...); they must be counted like the
# plain ones.
. "$(dirname "$0")/common.sh"
iolens_setup

prog=$PROGS/prog_fortify
if ! command -v nm >/dev/null 2>&1; then
    echo "SKIP: nm is needed to check which symbols the build references"
    exit 77
fi
# Without the checked forms in the binary this test would prove nothing.
for sym in __read_chk __pread_chk __open_2 __openat_2 __fprintf_chk __fgets_chk __fread_chk \
    __printf_chk __vfprintf_chk __getdelim fputc puts putchar; do
    if nm -u "$prog" | awk '{ sub(/@.*/, "", $2); print $2 }' | grep -qx "$sym"; then
        pass
    else
        fail "prog_fortify does not reference $sym (was it built with -O2 -D_FORTIFY_SOURCE=2?)"
    fi
done

in=$T/in
out=$T/out
log=$T/x.iolens
head -c 10000 /dev/zero >"$in" || fail "cannot make the input"
printf 'in1\nin2\n' | run_traced "$log" "$prog" "$in" "$out" 1000 >"$T/stdout" ||
    fail "prog_fortify exited with status $?"
require_log "$log"

# __open_2 + __openat_2; 10 reads of 1000 bytes, one 0-byte read at end of
# file (consecutive), one pread of 1000 at 5000.  The 0-byte read is no
# access size (as Darshan).
expect_counters "$log" "$in" <<END
POSIX_OPENS 2
POSIX_READS 12
POSIX_BYTES_READ 11000
POSIX_MAX_BYTE_READ 9999
POSIX_CONSEC_READS 10
POSIX_SEQ_READS 10
POSIX_SIZE_READ_0_100 1
POSIX_SIZE_READ_100_1K 11
POSIX_ACCESS1_ACCESS 1000
POSIX_ACCESS1_COUNT 11
POSIX_ACCESS2_ACCESS 0
POSIX_ACCESS2_COUNT 0
POSIX_WRITES 0
END

# Three "line N\n" (7 bytes) with __fprintf_chk, rewind, three
# __fgets_chk, one __fread_chk at end of file.
expect_counters "$log" "$out" <<END
STDIO_OPENS 1
STDIO_WRITES 3
STDIO_BYTES_WRITTEN 21
STDIO_MAX_BYTE_WRITTEN 20
STDIO_SEEKS 1
STDIO_READS 4
STDIO_BYTES_READ 21
STDIO_MAX_BYTE_READ 20
END
# stdin: the inline getline's __getdelim, twice 4 bytes and once at end
# of file.  stdout: __printf_chk "len 1000\n" (9), vprintf's
# __vfprintf_chk "n=3\n" (4), and what gcc made of fprintf(stdout, "\n"),
# printf("ok\n") and printf("!"): fputc (1), puts (3), putchar (1).
expect_counters "$log" "<STDIN>" <<END
STDIO_READS 3
STDIO_BYTES_READ 8
END
expect_counters "$log" "<STDOUT>" <<END
STDIO_WRITES 5
STDIO_BYTES_WRITTEN 18
END
check_eq 18 "$(stat -c %s "$T/stdout")" "size of prog_fortify's output"

# The stream's own descriptor is opened inside libc: no POSIX record.
check_eq 0 "$(records_of "$log" "$out" POSIX)" "POSIX records of the stdio file"
finish
