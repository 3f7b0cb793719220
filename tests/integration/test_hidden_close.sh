#!/bin/sh
# Descriptors closed inside the C library, where no close() is seen:
# closedir of a directory opened with fdopendir, close_range and
# closefrom.  Before they were traced, the descriptor stayed bound to its
# file, and a pipe or socket that got the number next had its reads and
# writes counted to that file.  See prog_hidden_close.c for the calls.
. "$(dirname "$0")/common.sh"
iolens_setup

log=$T/x.iolens
mkdir "$T/dir" || fail "cannot make a directory"
run_traced "$log" "$PROGS/prog_hidden_close" "$T/dir" "$T/f1" "$T/f2" "$T/f3" ||
    fail "prog_hidden_close exited with status $?"
require_log "$log"

# Each file is opened once and gets only its own writes; the pipes' 15
# bytes written and 15 read count nowhere.
expect_counters "$log" "$T/dir" <<END
POSIX_OPENS 1
POSIX_READS 0
POSIX_WRITES 0
END
expect_counters "$log" "$T/f1" <<END
POSIX_OPENS 1
POSIX_WRITES 1
POSIX_BYTES_WRITTEN 3
POSIX_READS 0
END
expect_counters "$log" "$T/f2" <<END
POSIX_OPENS 1
POSIX_WRITES 1
POSIX_BYTES_WRITTEN 4
POSIX_READS 0
END
# close_range with CLOSE_RANGE_CLOEXEC closes nothing, nor does one that
# fails: the writes after them count.
expect_counters "$log" "$T/f3" <<END
POSIX_OPENS 1
POSIX_WRITES 2
POSIX_BYTES_WRITTEN 13
POSIX_READS 0
END
check_eq 20 "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN"
check_eq 0 "$(total "$log" POSIX_BYTES_READ)" "total_POSIX_BYTES_READ"

# A real program: Python's os.fwalk opens the directory, and reads it
# through fdopendir on a duplicate of that descriptor (closed by
# closedir); then a pipe takes the numbers back.  Oracle: strace -y,
# which names the file behind each descriptor of a read or a write.
PYTHON=$(python_interpreter)
if [ -n "$PYTHON" ]; then
    mkdir "$T/flat" && : >"$T/flat/one" && : >"$T/flat/two" || fail "cannot make the directory"
    script='
import os, sys
for _ in os.fwalk(sys.argv[1]):
    pass
r, w = os.pipe()
os.write(w, b"hello")
sys.exit(0 if os.read(r, 5) == b"hello" else 1)
'
    run_traced "$T/py.iolens" "$PYTHON" -c "$script" "$T/flat" ||
        fail "python3 exited with status $?"
    require_log "$T/py.iolens"
    expect_counters "$T/py.iolens" "$T/flat" <<END
POSIX_OPENS 1
POSIX_READS 0
POSIX_WRITES 0
END
    if command -v strace >/dev/null 2>&1; then
        strace -f -y -qq -e trace=read,write -o "$T/py.strace" \
            "$PYTHON" -c "$script" "$T/flat" || fail "python3 under strace exited with status $?"
        check_eq 0 "$(grep -c "<$T/flat>" "$T/py.strace")" \
            "reads and writes strace shows on the directory"
        check_eq 2 "$(grep -c '<pipe:' "$T/py.strace")" "reads and writes strace shows on the pipe"
    fi
fi
finish
