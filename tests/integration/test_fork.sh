#!/bin/sh
# A forked child writes a log of its own, naming its parent; each log has
# only its own process's I/O.
. "$(dirname "$0")/common.sh"
iolens_setup

a=$T/a
b=$T/b
logs=$T/logs
mkdir "$logs" || fail "cannot make $logs"
pids=$(env IOLENS_NONMPI=1 IOLENS_LOGDIR="$logs" LD_PRELOAD="$IOLENS_LIB" "$PROGS/prog_fork" "$a" "$b") ||
    fail "prog_fork exited with status $?"
parent=${pids% *}
child=${pids#* }
check_eq 2 "$(ls "$logs" | wc -l)" "logs written"
plog=$(ls "$logs"/*_"$parent".iolens 2>/dev/null)
clog=$(ls "$logs"/*_"$child".iolens 2>/dev/null)
[ -n "$plog" ] || fail "no log named after the parent pid $parent: $(ls "$logs")"
[ -n "$clog" ] || fail "no log named after the child pid $child: $(ls "$logs")"
[ -n "$plog" ] && [ -n "$clog" ] || finish
require_log "$plog"
require_log "$clog"

check_eq "$parent" "$(header "$plog" pid)" "pid in the parent's log"
check_eq "<none>" "$(header "$plog" parent_pid)" "parent_pid in the parent's log"
check_eq "$child" "$(header "$clog" pid)" "pid in the child's log"
check_eq "$parent" "$(header "$clog" parent_pid)" "parent_pid in the child's log"

# Parent: 1000 bytes before the fork, 500 after.
expect_counters "$plog" "$a" <<END
POSIX_OPENS 1
POSIX_WRITES 2
POSIX_BYTES_WRITTEN 1500
POSIX_MAX_BYTE_WRITTEN 1499
POSIX_CONSEC_WRITES 1
END
check_eq 0 "$(records_of "$plog" "$b")" "records of the child's file in the parent's log"

# Child: counts start at the fork; it wrote 100 bytes at 5000 through the
# inherited descriptor and made b.
expect_counters "$clog" "$a" <<END
POSIX_OPENS 0
POSIX_WRITES 1
POSIX_BYTES_WRITTEN 100
POSIX_MAX_BYTE_WRITTEN 5099
END
expect_counters "$clog" "$b" <<END
POSIX_OPENS 1
POSIX_WRITES 1
POSIX_BYTES_WRITTEN 2000
END

# The access intervals too start afresh in the child: its log has only
# its own writes (a: 100 bytes, b: 2000), and the parent's log only the
# parent's (a: 1000 + 500), whatever else each did on its standard
# descriptors (the POSIX totals, which count those too, must agree).
posix_bps() { # LOG METRIC
    "$IOLENS_PARSER" --bps "$1" | awk -v m="$2" '$1 == "POSIX" && $2 == "*" && $3 == m { print $4 }'
}
check_eq $(($(total "$plog" POSIX_BYTES_WRITTEN) + $(total "$plog" POSIX_BYTES_READ))) \
    "$(posix_bps "$plog" bytes)" "POSIX interval bytes in the parent's log"
check_le 1500 "$(posix_bps "$plog" bytes)" "the parent's writes are intervals"
check_eq $(($(total "$clog" POSIX_WRITES) + $(total "$clog" POSIX_READS))) \
    "$(posix_bps "$clog" accesses)" "POSIX access intervals in the child's log"
check_eq $(($(total "$clog" POSIX_BYTES_WRITTEN) + $(total "$clog" POSIX_BYTES_READ))) \
    "$(posix_bps "$clog" bytes)" "POSIX interval bytes in the child's log"
check_le 2100 "$(posix_bps "$clog" bytes)" "the child's writes are intervals"

# With IOLENS_LOGFILE the parent's log takes the exact path and the
# child's the same path followed by .<its pid>, so neither replaces the other.
exact=$T/exact.iolens
pids=$(env IOLENS_NONMPI=1 IOLENS_LOGFILE="$exact" LD_PRELOAD="$IOLENS_LIB" "$PROGS/prog_fork" "$T/c" "$T/d") ||
    fail "prog_fork with IOLENS_LOGFILE exited with status $?"
parent=${pids% *}
child=${pids#* }
require_log "$exact"
require_log "$exact.$child"
check_eq "$parent" "$(header "$exact" pid)" "pid in the log at IOLENS_LOGFILE"
check_eq "$parent" "$(header "$exact.$child" parent_pid)" "parent_pid in the child's IOLENS_LOGFILE.<pid> log"
check_eq 1500 "$(counter "$exact" "$T/c" POSIX_BYTES_WRITTEN)" "parent's bytes at IOLENS_LOGFILE"
check_eq 2000 "$(counter "$exact.$child" "$T/d" POSIX_BYTES_WRITTEN)" "child's bytes at IOLENS_LOGFILE.<pid>"
# The child's folding is its own too.  Python makes 3000 files, stats
# and opens each again in 256K (most fold into <other files>), then forks;
# the child stats every file and makes one more.  Before, the child's
# header carried the parent's folded opens (some 4,700, against the one
# open the child made) and folded files.
if command -v python3 >/dev/null 2>&1; then
    mkdir "$T/many" "$T/forklogs" || fail "cannot make $T/many"
    cat >"$T/fork_after_folding.py" <<'END'
import os, sys
d, n = sys.argv[1], 3000
for i in range(n):
    with open(f"{d}/f{i}", "wb", buffering=0) as f:
        f.write(b"0123456789")
for i in range(n):
    os.stat(f"{d}/f{i}")
for i in range(n):
    fd = os.open(f"{d}/f{i}", os.O_RDWR)
    os.pwrite(fd, b"abcde", 10)
    os.close(fd)
pid = os.fork()
if pid == 0:
    for i in range(n):
        os.stat(f"{d}/f{i}")
    fd = os.open(f"{d}/child", os.O_CREAT | os.O_WRONLY, 0o644)
    os.write(fd, b"x" * 7)
    os.close(fd)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print(os.getpid(), pid, status)
END
    out=$(env IOLENS_NONMPI=1 IOLENS_EXCLUDE=/ IOLENS_INCLUDE="$T/many" IOLENS_MEMORY=256K \
        IOLENS_LOGDIR="$T/forklogs" LD_PRELOAD="$IOLENS_LIB" python3 "$T/fork_after_folding.py" "$T/many") ||
        fail "python with a fork exited with status $?"
    set -- $out
    check_eq 0 "${3:-}" "the python child's exit status"
    pplog=$(ls "$T/forklogs"/*python*_"${1:-x}".iolens 2>/dev/null)
    pclog=$(ls "$T/forklogs"/*python*_"${2:-x}".iolens 2>/dev/null)
    if [ -n "$pplog" ] && [ -n "$pclog" ]; then
        require_log "$pplog"
        require_log "$pclog"
        check_gt "$(header "$pplog" "folded opens")" 1000 "opens folded in the parent"
        check_eq 6000 "$(total "$pplog" POSIX_OPENS)" "the parent's opens"
        check_eq 1 "$(total "$pclog" POSIX_OPENS)" "the child's opens"
        check_eq 3000 "$(total "$pclog" POSIX_STATS)" "the child's stats"
        # Its one open is in a row of its own or folded: never more.
        check_eq 1 "$(( $(header "$pclog" "folded opens") + $(counter "$pclog" "$T/many/child" POSIX_OPENS | sed 's/<none>/0/') ))" \
            "the child's open, in its row or folded"
        check_le "$(header "$pclog" "folded files" | awk '{ print $1 }')" 3200 \
            "files folded in the child, at most the 3001 it touched (and the estimate's error)"
    else
        fail "the python parent's and child's logs: $(ls "$T/forklogs")"
    fi
else
    echo "note: no python3, the fork after folding is not checked"
fi
finish
