#!/bin/sh
# The exec family: a program's I/O before a successful exec is in a log of
# its own (marked "exec: yes"), the program that follows has another, and
# an exec that fails leaves no log behind and changes no errno.  Checked
# for each of the nine exec functions; the figures are prog_exec.c's own.
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
iolens_setup
prog=$PROGS/prog_exec

logs_in() { find "$1" -maxdepth 1 -type f | LC_ALL=C sort; }

# The log of DIR whose header has (or, with !, lacks) the exec line.
exec_log() { # DIR [!]
    for log in $(logs_in "$1"); do
        if "$IOLENS_PARSER" --base "$log" | grep -q '^# exec: yes'; then
            [ "${2:-}" = ! ] || echo "$log"
        else
            [ "${2:-}" != ! ] || echo "$log"
        fi
    done
}

# counter() of common.sh, for a log in a log directory (no .base beside it).
log_counter() { # LOG FILE COUNTER
    "$IOLENS_PARSER" --base "$1" | awk -F'\t' -v f="$2" -v c="$3" '
        $1 !~ /^#/ && $6 == f && $4 == c { print $5; n++ }
        END { if (n == 0) print "<none>" }'
}

header() { "$IOLENS_PARSER" --base "$1" | sed -n "s/^# $2: //p"; }

for how in execve execv execvp execvpe execl execle execlp fexecve execveat; do
    dir=$T/logs-$how
    rm -f "$T/first" "$T/second" "$T/second.bad"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$dir" LD_PRELOAD="$IOLENS_LIB" \
        "$prog" "$how" "$T/first" "$T/second" >"$T/out" 2>"$T/err"
    check_eq 0 "$?" "exit status with $how ($(cat "$T/err"))"
    check_eq 2 "$(logs_in "$dir" | wc -l)" "logs with $how (one per program, none per failed exec)"
    before=$(exec_log "$dir")
    after=$(exec_log "$dir" !)
    if [ -z "$before" ] || [ -z "$after" ]; then
        fail "$how: no log before the exec ('$before') or after it ('$after')"
        continue
    fi
    check_eq 1001 "$(log_counter "$before" "$T/first" POSIX_BYTES_WRITTEN)" "bytes to first before $how"
    check_eq 2 "$(log_counter "$before" "$T/first" POSIX_WRITES)" "writes to first before $how"
    check_eq 2 "$(log_counter "$before" "$T/first" POSIX_OPENS)" "opens of first before $how"
    check_eq 4 "$(log_counter "$before" "$T/second.bad" POSIX_BYTES_WRITTEN)" "bytes to second.bad before $how"
    check_eq "<none>" "$(log_counter "$before" "$T/second" POSIX_BYTES_WRITTEN)" "second in the log before $how"
    check_eq 500 "$(log_counter "$after" "$T/second" POSIX_BYTES_WRITTEN)" "bytes to second after $how"
    check_eq 2 "$(log_counter "$after" "$T/second" POSIX_WRITES)" "writes to second after $how"
    check_eq "<none>" "$(log_counter "$after" "$T/first" POSIX_BYTES_WRITTEN)" "first in the log after $how"
    check_eq "$(header "$before" pid)" "$(header "$after" pid)" "pid of both programs with $how"
done

# IOLENS_LOGFILE: the program after the exec gets FILE.<pid> beside it.
rm -f "$T/first" "$T/second"
run_traced "$T/chain.iolens" "$prog" execv "$T/first" "$T/second" >/dev/null 2>"$T/err"
check_eq 0 "$?" "exit status with IOLENS_LOGFILE ($(cat "$T/err"))"
require_log "$T/chain.iolens"
check_eq "yes (written at execve; the program that followed, same pid, has its own log)" \
    "$(header "$T/chain.iolens" exec)" "exec line of IOLENS_LOGFILE's log"
pid=$(header "$T/chain.iolens" pid)
require_log "$T/chain.iolens.$pid"
check_eq 500 "$(counter "$T/chain.iolens.$pid" "$T/second" POSIX_BYTES_WRITTEN)" \
    "bytes to second in IOLENS_LOGFILE.<pid>"

# A shell that execs its last command (sh -c): the shell's own
# redirection before the exec is in its log, cat's reading in cat's.
dir=$T/logs-sh
printf 'twelve bytes' >"$T/in"
(cd "$T" && env IOLENS_NONMPI=1 IOLENS_LOGDIR="$dir" LD_PRELOAD="$IOLENS_LIB" \
    sh -c 'exec >out1; exec cat in')
check_eq "twelve bytes" "$(cat "$T/out1")" "cat's output through the shell's redirection"
sh_log=$(exec_log "$dir")
cat_log=$(exec_log "$dir" !)
check_eq 1 "$(log_counter "$sh_log" "$T/out1" POSIX_OPENS)" "the shell's open of out1 before its exec"
check_eq 12 "$(log_counter "$cat_log" "$T/in" POSIX_BYTES_READ)" "cat's bytes read after the exec"

# bash forks a child for each command: the one that opens a redirection
# before its exec has a log of its own, the one that only execs has none.
need bash
dir=$T/logs-bash
(cd "$T" && env IOLENS_NONMPI=1 IOLENS_LOGDIR="$dir" LD_PRELOAD="$IOLENS_LIB" \
    bash -c 'cat in >out2; cat in; true') >/dev/null
check_eq 4 "$(logs_in "$dir" | wc -l)" "logs of bash -c 'cat in >out2; cat in; true' (bash, its child with the redirection, two cats)"
check_eq 1 "$(exec_log "$dir" | wc -l)" "logs written at an exec under bash"
check_eq 1 "$(log_counter "$(exec_log "$dir")" "$T/out2" POSIX_OPENS)" "the forked child's open of out2"
finish
