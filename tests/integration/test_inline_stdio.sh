#!/bin/sh
# Bytes moved by glibc's inline stdio macros (getc_unlocked, putc_unlocked
# and friends in optimized code) are counted by buffer accounting: exact
# STDIO bytes for prog_inline_stdio (see its header for the calls), checked
# against the program's own arithmetic, the files' sizes and strace, and
# for wc and python3, which read or write that way.
. "$(dirname "$0")/common.sh"
iolens_setup

prog=$PROGS/prog_inline_stdio
in=$T/in
out=$T/out
shared=$T/shared
stdout=$T/stdout
log=$T/x.iolens

# The macros must really have been expanded inline, or this test would
# count ordinary calls: no call to them is left, only __uflow/__overflow.
if ! command -v nm >/dev/null 2>&1; then
    echo "SKIP: nm is needed to check that prog_inline_stdio inlines the macros"
    exit 77
fi
undefined=$(nm -u "$prog" | awk '{ sub(/@.*/, "", $2); print $2 }')
for sym in getc_unlocked fgetc_unlocked getchar_unlocked putc_unlocked fputc_unlocked \
    putchar_unlocked; do
    echo "$undefined" | grep -qx "$sym" &&
        fail "prog_inline_stdio calls $sym: the macro was not inlined (built without -O2?)"
done
for sym in __uflow __overflow; do
    echo "$undefined" | grep -qx "$sym" ||
        fail "prog_inline_stdio does not call $sym: the inline macros are not glibc's"
done

# 20000 bytes without a newline: several buffers' worth (BUFSIZ is 8192,
# st_blksize usually 4096), so __uflow and __overflow run several times.
head -c 20000 /dev/zero | tr '\0' a >"$in"
size=$(stat -c %s "$in")

if command -v strace >/dev/null 2>&1; then
    strace_log=$T/strace
    set -- strace -f -qq -y -e trace=read,write -o "$strace_log"
else
    strace_log=
    set --
fi
"$@" env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" \
    "$prog" "$in" "$out" <"$in" >"$stdout" 2>"$T/err" ||
    fail "prog_inline_stdio exited with status $?: $(cat "$T/err")"
check_eq "read $size stdin $size" "$(cat "$T/err")" "prog_inline_stdio's own count"
check_eq 18105 "$(stat -c %s "$out")" "size of $out"
check_eq 9105 "$(stat -c %s "$stdout")" "size of prog_inline_stdio's output"
require_log "$log"

# IN: fread 100 + getc_unlocked 5000 + fgetc_unlocked 3000 + fgets 49 +
# getc_unlocked to the end.  OUT: closed with fclose (caught up before
# its flush).  stdout: left in the buffer for exit (caught up when the log
# is written).  Inline bytes are not calls: only the byte counts and the
# furthest byte are asserted, the call counts depend on the buffer size.
expect_counters "$log" "$in" <<END
STDIO_BYTES_READ $size
STDIO_MAX_BYTE_READ $((size - 1))
STDIO_BYTES_WRITTEN 0
END
expect_counters "$log" "$out" <<END
STDIO_BYTES_WRITTEN 18105
STDIO_MAX_BYTE_WRITTEN 18104
STDIO_BYTES_READ 0
END
expect_counters "$log" "<STDIN>" <<END
STDIO_BYTES_READ $size
STDIO_MAX_BYTE_READ $((size - 1))
END
expect_counters "$log" "<STDOUT>" <<END
STDIO_BYTES_WRITTEN 9105
STDIO_MAX_BYTE_WRITTEN 9104
END

# strace -y names each descriptor's file: IN is read twice (as stdin and
# through fopen).
moved() { # SYSCALL FILE
    awk -v s="$1(" -v f="<$2>" 'index($0, s) && index($0, f) && $NF ~ /^[0-9]+$/ { n += $NF }
        END { print n + 0 }' "$strace_log"
}
if [ -n "$strace_log" ]; then
    check_eq $((2 * size)) "$(moved read "$in")" "bytes read(2) took from $in"
    check_eq 18105 "$(moved write "$out")" "bytes write(2) put into $out"
    check_eq 9105 "$(moved write "$stdout")" "bytes write(2) put into stdout"
fi

# SHARED: 4 threads, each 3000 fputs of 11 bytes and 3000 times 5
# putc_unlocked under flockfile, all at once.  With several threads
# buffer accounting pauses (iolens(7)): every fputs byte and the bytes
# __overflow wrote are counted, the other inline bytes are not, and no
# byte twice (a catch-up racing another thread's call would).
tlog=$T/threads.iolens
run_traced "$tlog" "$prog" --threads "$shared" || fail "prog_inline_stdio --threads exited with status $?"
check_eq 192000 "$(stat -c %s "$shared")" "size of $shared"
require_log "$tlog"
shared_bytes=$(counter "$tlog" "$shared" STDIO_BYTES_WRITTEN)
# Every write call is one of the 12000 fputs (11 bytes) or an __overflow
# (1 byte).
shared_writes=$(counter "$tlog" "$shared" STDIO_WRITES)
check_le 12000 "$shared_writes" "STDIO_WRITES of $shared"
check_eq $((132000 + shared_writes - 12000)) "$shared_bytes" "STDIO_BYTES_WRITTEN of $shared"
check_le "$shared_bytes" 192000 "STDIO_BYTES_WRITTEN of $shared vs the bytes written"

# With the STDIO layer off nothing is counted (streams untouched).
log2=$T/off.iolens
run_traced "$log2" IOLENS_DISABLE_LAYERS=stdio "$prog" "$in" "$out" <"$in" >/dev/null 2>&1 ||
    fail "prog_inline_stdio (stdio off) exited with status $?"
require_log "$log2"
check_eq 0 "$(base_of "$log2" | grep -c '^STDIO')" "STDIO lines with IOLENS_DISABLE_LAYERS=stdio"

# wc -c prints its count with printf and the newline with the inline
# putchar_unlocked (coreutils' unlocked-io.h).
if command -v wc >/dev/null 2>&1; then
    wlog=$T/wc.iolens
    run_traced "$wlog" wc -c <"$in" >"$T/wc.out" || fail "wc -c exited with status $?"
    check_eq "$size" "$(cat "$T/wc.out")" "wc -c's output"
    require_log "$wlog"
    check_eq "$(stat -c %s "$T/wc.out")" "$(counter "$wlog" "<STDOUT>" STDIO_BYTES_WRITTEN)" \
        "STDIO_BYTES_WRITTEN of wc's <STDOUT>"
fi

# fcloseall flushes every stream without fclose: what putc_unlocked left
# in a buffer is counted before it goes.
flog=$T/fcloseall.iolens
run_traced "$flog" "$prog" --fcloseall "$T/fc.out" || fail "prog_inline_stdio --fcloseall exited with status $?"
require_log "$flog"
check_eq 102 "$(stat -c %s "$T/fc.out")" "size of the file fcloseall flushed"
check_eq 102 "$(counter "$flog" "$T/fc.out" STDIO_BYTES_WRITTEN)" "STDIO_BYTES_WRITTEN of a stream fcloseall flushed"

# tar tf ends each name with an inline putc_unlocked and, its listing
# going to a pipe, empties the buffer with fflush_unlocked (gnulib's
# unlocked-io) after each: the newline must be counted before the flush.
if command -v tar >/dev/null 2>&1; then
    mkdir "$T/tree" && for i in 1 2 3 4 5; do echo "$i" >"$T/tree/f$i"; done
    (cd "$T" && tar cf tree.tar tree) || fail "cannot make tree.tar"
    tlog=$T/tar.iolens
    run_traced "$tlog" tar tf "$T/tree.tar" | cat >"$T/tar.out" || fail "tar tf exited with status $?"
    check_eq 6 "$(wc -l <"$T/tar.out")" "names listed by tar tf"
    require_log "$tlog"
    check_eq "$(stat -c %s "$T/tar.out")" "$(counter "$tlog" "<STDOUT>" STDIO_BYTES_WRITTEN)" \
        "STDIO_BYTES_WRITTEN of tar tf's <STDOUT> (a pipe, flushed after each name)"
fi

# python3 reads a script named on its command line with fopen and its
# tokenizer's getc_unlocked.  Every byte is read (the furthest byte is the
# last); a few are read twice by design: CPython 3.11 reads 2 bytes to
# look for a .pyc magic number and rewinds, and pushes one back with
# ungetc (ungetc'd bytes count again when read again, iolens(7)).
if [ -x /usr/bin/python3 ]; then
    script=$T/script.py
    i=0
    while [ $i -lt 200 ]; do
        echo "# line $i of a script that the tokenizer reads with getc_unlocked"
        i=$((i + 1))
    done >"$script"
    echo 'print("ok")' >>"$script"
    ssize=$(stat -c %s "$script")
    plog=$T/py.iolens
    run_traced "$plog" /usr/bin/python3 "$script" >"$T/py.out" || fail "python3 exited with status $?"
    check_eq ok "$(cat "$T/py.out")" "python3's output"
    require_log "$plog"
    check_eq $((ssize - 1)) "$(counter "$plog" "$script" STDIO_MAX_BYTE_READ)" \
        "STDIO_MAX_BYTE_READ of the python script"
    bytes=$(counter "$plog" "$script" STDIO_BYTES_READ)
    check_le "$ssize" "$bytes" "the python script's size vs its STDIO_BYTES_READ"
    check_le "$bytes" $((ssize + 3)) "STDIO_BYTES_READ of the python script vs its size + 3"
fi

# paste reads all of its files at once, a line at a time with the inline
# getc_unlocked.  Streams beyond the stream table used to share one slot,
# where the buffer is not watched: only their __uflow calls counted, a
# byte each (512K, 300 files: 12,589 bytes read of 14,892; 2M, 1,200
# files: 51,143 of 60,093).  More tables, from the budget, keep them
# apart.  (1,200 files open at once need a limit of open files above
# 1,024.)
files_limit=$(ulimit -n)
if command -v paste >/dev/null 2>&1; then
    for spec in 512K:300 2M:1200; do
        case $files_limit in unlimited) ;; *) [ "$files_limit" -gt $((${spec#*:} + 10)) ] || continue ;; esac
        budget=${spec%:*}
        n=${spec#*:}
        pdir=$T/paste$budget
        mkdir "$pdir" || fail "cannot make $pdir"
        i=1
        while [ $i -le "$n" ]; do
            echo "line $i of a file paste reads with getc_unlocked" >"$pdir/$(printf 'p%04d' $i)"
            i=$((i + 1))
        done
        size=$(cat "$pdir"/p* | wc -c)
        plog=$T/paste$budget.iolens
        run_traced "$plog" env IOLENS_MEMORY=$budget paste "$pdir"/p* >"$T/paste.out" ||
            fail "paste in $budget exited with status $?"
        check_eq "$size" $(($(wc -c <"$T/paste.out"))) "bytes paste wrote, $budget"
        require_log "$plog"
        check_eq "$n" "$(total "$plog" STDIO_OPENS)" "total_STDIO_OPENS of paste, $budget"
        check_eq "$size" "$(total "$plog" STDIO_BYTES_READ)" "total_STDIO_BYTES_READ of paste, $budget"
    done
fi
finish
