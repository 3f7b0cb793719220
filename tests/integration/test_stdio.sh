#!/bin/sh
# STDIO counters, exactly (see prog_stdio.c for the calls).
. "$(dirname "$0")/common.sh"
iolens_setup

main=$T/main
app=$T/append
fdo=$T/fdopened
chars=$T/chars
log=$T/x.iolens
prog=$PROGS/prog_stdio

# Every entry point must really be called (not rewritten or inlined by the
# compiler), or the counts below would prove nothing.
if command -v nm >/dev/null 2>&1; then
    for sym in fputc putc _IO_putc fputc_unlocked putc_unlocked putw fputs_unlocked \
        fwrite_unlocked fgetc getc _IO_getc fgetc_unlocked getc_unlocked ungetc getw \
        fgets_unlocked getline getdelim fread_unlocked fgetpos fsetpos fgetpos64 fsetpos64 \
        printf vprintf puts putchar putchar_unlocked getchar getchar_unlocked __printf_chk \
        __vprintf_chk; do
        nm -u "$prog" | awk '{ sub(/@.*/, "", $2); print $2 }' | grep -qx "$sym" ||
            fail "prog_stdio does not call $sym (built with -fno-builtin -fno-inline?)"
    done
fi

# Under strace when there is one (outside the traced process): the bytes
# that reach the files and stdout through write(2) are the oracle.
stdout=$T/stdout
if command -v strace >/dev/null 2>&1; then
    strace_log=$T/strace
    set -- strace -f -qq -y -e trace=write -o "$strace_log"
else
    strace_log=
    set --
fi
printf QR | "$@" env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" \
    "$prog" "$main" "$app" "$fdo" "$chars" >"$stdout" 2>"$T/err" ||
    fail "prog_stdio exited with status $?: $(cat "$T/err")"
check_eq "" "$(cat "$T/err")" "prog_stdio's complaints"
check_eq "done 7 ab-3 hello x 5;zz" "$(echo $(cat "$stdout"))" "prog_stdio's output"
require_log "$log"

# Bytes write(2) put into FILE (strace -y names the descriptor's file).
written_to() {
    awk -v f="$1" 'index($0, "<" f ">") && $NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' \
        "$strace_log"
}

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

# The character, _unlocked and line functions (see prog_stdio.c): every
# call counted once with the bytes it moved; ungetc is not a read (the
# byte it pushed back counts when getc reads it again), fsetpos and
# fsetpos64 are seeks (with rewind: 3), fgetpos is not counted.
expect_counters "$log" "$chars" <<END
STDIO_OPENS 1
STDIO_WRITES 8
STDIO_BYTES_WRITTEN 22
STDIO_MAX_BYTE_WRITTEN 21
STDIO_FLUSHES 1
STDIO_SEEKS 3
STDIO_READS 14
STDIO_BYTES_READ 36
STDIO_MAX_BYTE_READ 21
END
check_eq 22 "$(stat -c %s "$chars")" "size of $chars"

# stdin: getchar, getchar_unlocked, getchar at end of file.
expect_counters "$log" "<STDIN>" <<END
STDIO_READS 3
STDIO_BYTES_READ 2
END
# stdout: fprintf 5, printf 2, vprintf 5, puts 6, putchar 1,
# putchar_unlocked 1, __printf_chk 2, __vprintf_chk 3.
expect_counters "$log" "<STDOUT>" <<END
STDIO_WRITES 8
STDIO_BYTES_WRITTEN 25
STDIO_OPENS 0
END
check_eq 25 "$(stat -c %s "$stdout")" "size of prog_stdio's output"
check_eq 5 "$(total "$log" STDIO_OPENS)" "total_STDIO_OPENS"
check_eq $((141 - 5 + 25 + 22)) "$(total "$log" STDIO_BYTES_WRITTEN)" "total_STDIO_BYTES_WRITTEN"
if [ -n "$strace_log" ]; then
    check_eq 22 "$(written_to "$chars")" "bytes write(2) put into $chars"
    check_eq 113 "$(written_to "$main")" "bytes write(2) put into $main"
    check_eq 25 "$(written_to "$stdout")" "bytes write(2) put into stdout"
fi

# With the STDIO layer off, the same run has no STDIO record at all but
# keeps its POSIX ones.
log2=$T/nostdio.iolens
rm -f "$main" "$app" "$fdo" "$chars"
printf QR | run_traced "$log2" IOLENS_DISABLE_LAYERS=stdio "$prog" "$main" "$app" "$fdo" "$chars" >/dev/null ||
    fail "prog_stdio (stdio off) exited with status $?"
require_log "$log2"
check_eq 0 "$(base_of "$log2" | grep -c '^STDIO')" "STDIO lines with IOLENS_DISABLE_LAYERS=stdio"
check_eq 1 "$(counter "$log2" "$fdo" POSIX_OPENS)" "POSIX_OPENS of $fdo with stdio off"

# tmpfile and tmpfile64: the C library opens their files where no open is
# seen, so they used to be counted nowhere, nor the write(2) on their
# descriptors.  Their files have no name: they are named after /tmp, the
# directory they are in, as an O_TMPFILE open is.  Each: fwrite 10,
# write(2) 3 on its descriptor, rewind, fread 13 (prog_tmpfile.c).
log3=$T/tmpfile.iolens
tmpfiles=$T/tmpfile.strace
if [ -n "$strace_log" ]; then
    set -- strace -f -qq -y -e trace=write -o "$tmpfiles"
else
    set --
fi
check_eq "13 13" "$("$@" env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log3" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_tmpfile")" "prog_tmpfile's reads"
require_log "$log3"
expect_counters "$log3" /tmp <<END
STDIO_OPENS 2
STDIO_WRITES 2
STDIO_BYTES_WRITTEN 20
STDIO_SEEKS 2
STDIO_READS 2
STDIO_BYTES_READ 26
POSIX_OPENS 0
POSIX_WRITES 2
POSIX_BYTES_WRITTEN 6
END
if [ -n "$strace_log" ]; then
    check_eq 26 "$(awk 'index($0, "</tmp/#") && $NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' \
        "$tmpfiles")" "bytes write(2) put into the tmpfiles"
fi
finish
