#!/bin/sh
# SIGINT, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2 and SIGALRM
# (lib/core/termination.c): a process that one of them ends, at its
# default action, leaves the log of the I/O it did, marked incomplete,
# with exact counts, and still ends killed by the signal.  One the program handles or ignores gets no log at the signal
# (the program decides how it ends, and its log comes then).  The program
# sees its own dispositions throughout (prog_sigterm checks what
# sigaction()/signal() report).  SIGTERM has test_sigterm.sh.
# A shell without job control starts a background job with SIGINT
# ignored (a test runner may ignore SIGPIPE too), and a script cannot
# undo that (POSIX): where env can (coreutils 8.31 and later), the test
# runs itself again with every signal it sends at SIG_DFL.
if [ -z "${IOLENS_SIGNALS_AT_DEFAULT:-}" ] && env --default-signal=INT true 2>/dev/null; then
    IOLENS_SIGNALS_AT_DEFAULT=1 exec env --default-signal=HUP,INT,PIPE,USR1,USR2,ALRM,TERM \
        /bin/sh "$0" "$@"
fi
. "$(dirname "$0")/common.sh"
iolens_setup

# run_both MODE SIG: untraced, then traced with its logs in $T/logs.MODE.SIG;
# sets PLAIN/TRACED (exit statuses) and LOG (the one log written).
run_both() {
    c_=$1.$2
    "$PROGS/prog_sigterm" "$1" "$T/plain.$c_" "$2" >"$T/plain.$c_.out" 2>"$T/plain.$c_.err"
    PLAIN=$?
    mkdir "$T/logs.$c_"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs.$c_" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_sigterm" "$1" "$T/data.$c_" "$2" >"$T/traced.$c_.out" 2>"$T/traced.$c_.err"
    TRACED=$?
    check_eq "$PLAIN" "$TRACED" "exit status of $c_ traced and untraced"
    check_eq "$(cat "$T/plain.$c_.out")" "$(cat "$T/traced.$c_.out")" "stdout of $c_"
    check_eq "$(cat "$T/plain.$c_.err")" "$(cat "$T/traced.$c_.err")" "stderr of $c_"
    check_eq 1 "$(ls -A "$T/logs.$c_" | wc -l)" "files in the log directory of $c_"
    LOG=$(ls "$T/logs.$c_"/*.iolens 2>/dev/null | head -n 1)
    [ -n "$LOG" ] || LOG=$T/logs.$c_/none
    require_log "$LOG"
}

INCOMPLETE="yes (written at a signal that ends the process, or exit without MPI_Finalize)"

expect_bytes() {
    check_eq "$2" "$(counter "$LOG" "$T/data.$1" POSIX_BYTES_WRITTEN)" "bytes written of $1"
}

for sig in INT HUP PIPE USR1 USR2 ALRM; do
    case $sig in
    INT) killed=130 ;;
    HUP) killed=129 ;;
    PIPE) killed=141 ;;
    USR1) killed=138 ;;
    USR2) killed=140 ;;
    ALRM) killed=142 ;;
    esac
    # At the default action: the log, then death by the signal.
    for m in default threads; do
        run_both $m $sig
        check_eq $killed "$TRACED" "$m.$sig: killed by SIG$sig under iolens"
        check_eq "$INCOMPLETE" "$(header "$LOG" incomplete)" "incomplete mark of $m.$sig"
        expect_counters "$LOG" "$T/data.$m.$sig" <<END
POSIX_OPENS 1
POSIX_WRITES 3
POSIX_BYTES_WRITTEN 3000
POSIX_MAX_BYTE_WRITTEN 2999
END
    done
    # A SIGTERM handled first (its log written, the program goes on),
    # then this signal: the log is written again, with the later bytes.
    run_both after-term $sig
    check_eq $killed "$TRACED" "after-term.$sig: killed by SIG$sig under iolens"
    check_eq "$INCOMPLETE" "$(header "$LOG" incomplete)" "incomplete mark of after-term.$sig"
    expect_bytes after-term.$sig 3500
    # The program's own handlers run as without iolens, and no log is
    # written at the signal: the one at the end is complete.
    run_both handler-exit $sig
    check_eq 9 "$TRACED" "handler-exit.$sig: the sigaction handler's exit status"
    check_eq "<none>" "$(header "$LOG" incomplete)" "incomplete mark of handler-exit.$sig"
    expect_bytes handler-exit.$sig 3000
    run_both signal-exit $sig
    check_eq 11 "$TRACED" "signal-exit.$sig: the signal() handler's exit status"
    check_eq "<none>" "$(header "$LOG" incomplete)" "incomplete mark of signal-exit.$sig"
    run_both handler-back $sig
    check_eq 7 "$TRACED" "handler-back.$sig: exit status after a handler that returned"
    check_eq "<none>" "$(header "$LOG" incomplete)" "incomplete mark of handler-back.$sig"
    expect_bytes handler-back.$sig 3500
    # Ignored before the program started (nohup, a background job): stays
    # ignored.
    trap '' $sig
    run_both ignored $sig
    trap - $sig
    check_eq 5 "$TRACED" "ignored.$sig: exit status with SIG$sig ignored"
    check_eq "<none>" "$(header "$LOG" incomplete)" "incomplete mark of ignored.$sig"
    expect_bytes ignored.$sig 3000
done

# Nothing on the signal's path allocates in the process: with _exit in
# the program's handler (the usual way out of one) the runtime looked
# MPI's symbols up there (dlsym, which frees dlerror's last message), and
# a handler that had interrupted malloc would deadlock or corrupt the heap.
# prog_handler_alloc replaces malloc and its kind and ends with status 5
# if this process allocates once the signal is sent (the snapshot copy,
# another process, may).
for m in handler-exit default; do
    case $m in handler-exit) want=9 ;; default) want=138 ;; esac
    mkdir "$T/logs.alloc.$m"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs.alloc.$m" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_handler_alloc" $m "$T/data.alloc.$m" 2>"$T/alloc.$m.err"
    check_eq $want $? "exit status of prog_handler_alloc $m (5: it allocated)"
    # (the shell may add its own line about the signal there)
    check_eq 0 "$(grep -c 'allocation on the signal' "$T/alloc.$m.err")" \
        "prog_handler_alloc $m's report of an allocation"
    LOG=$(ls "$T/logs.alloc.$m"/*.iolens 2>/dev/null | head -n 1)
    [ -n "$LOG" ] || LOG=$T/logs.alloc.$m/none
    require_log "$LOG"
    check_eq 1000 "$(counter "$LOG" "$T/data.alloc.$m" POSIX_BYTES_WRITTEN)" \
        "bytes written before the signal ($m)"
done

# Ctrl-C from outside (a terminal's, or LSF's bkill, which sends SIGINT
# first); the log names the process itself, not the copy that wrote it.
mkdir "$T/logs.wait"
env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs.wait" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_sigterm" wait "$T/data.wait" INT >"$T/wait.out" &
pid=$!
tries=0
while [ "$(cat "$T/wait.out" 2>/dev/null)" != ready ] && [ $tries -lt 200 ]; do
    sleep 0.05
    tries=$((tries + 1))
done
kill -INT $pid
wait $pid
check_eq 130 $? "exit status after an outside SIGINT"
LOG=$(ls "$T/logs.wait"/*_"$pid".iolens 2>/dev/null)
[ -n "$LOG" ] || LOG=$T/logs.wait/none
require_log "$LOG"
check_eq "$pid" "$(header "$LOG" pid)" "pid in the log written at SIGINT"
check_eq "$INCOMPLETE" "$(header "$LOG" incomplete)" "incomplete mark after an outside SIGINT"
check_eq 3000 "$(counter "$LOG" "$T/data.wait" POSIX_BYTES_WRITTEN)" "bytes written before SIGINT"

# Ctrl-C in Python: its own handler raises KeyboardInterrupt, and at
# the end Python puts SIGINT back to SIG_DFL and kills itself with it
# (exit status 130), after its exit handlers: no log at all before.
PY=$(python_interpreter)
if [ -n "$PY" ]; then
    mkdir "$T/logs.py"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs.py" LD_PRELOAD="$IOLENS_LIB" "$PY" -c "
import os, signal
with open('$T/data.py', 'w') as f:
    f.write('x' * 1000)
os.kill(os.getpid(), signal.SIGINT)
" 2>"$T/py.err"
    check_eq 130 $? "exit status of python3 after KeyboardInterrupt"
    check_eq KeyboardInterrupt "$(tail -n 1 "$T/py.err")" "python3's own report of Ctrl-C"
    LOG=$(ls "$T/logs.py"/*.iolens 2>/dev/null | head -n 1)
    [ -n "$LOG" ] || LOG=$T/logs.py/none
    require_log "$LOG"
    check_eq "$INCOMPLETE" "$(header "$LOG" incomplete)" "incomplete mark of python3's log"
    check_eq 1000 "$(counter "$LOG" "$T/data.py" POSIX_BYTES_WRITTEN)" "bytes python3 wrote"
    # What Python reads of the four dispositions at start-up (a C handler
    # it does not know would show as None), with SIGHUP ignored as under
    # nohup: the same traced and untraced.
    show='import signal
def name(h):
    return h.__name__ if callable(h) else str(h if h is None else int(h))
print(*[name(signal.getsignal(s)) for s in
        (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE)])'
    trap '' HUP
    plain=$("$PY" -c "$show")
    traced=$(env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs.py" LD_PRELOAD="$IOLENS_LIB" "$PY" -c "$show")
    trap - HUP
    check_eq "0 default_int_handler 1 1" "$plain" "dispositions python3 sees untraced"
    check_eq "$plain" "$traced" "dispositions python3 sees traced"
fi

# iolens's own message must not raise SIGPIPE: true, with IOLENS_MEMORY
# wrong (a message at start-up) and its standard error a pipe whose
# reader has left, exits 0 as without iolens (it was killed by SIGPIPE).
if [ -n "$PY" ]; then
    env IOLENS_NONMPI=1 IOLENS_MEMORY=bogus IOLENS_LOGDIR="$T" LD_PRELOAD="$IOLENS_LIB" true \
        2>"$T/true.err"
    check_eq "iolens: IOLENS_MEMORY=bogus is not a size (e.g. 2M, 512K); using 2M" \
        "$(cat "$T/true.err")" "the message true's standard error gets"
    for lib in none "$IOLENS_LIB"; do
        check_eq 0 "$("$PY" -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
env = dict(os.environ, IOLENS_NONMPI="1", IOLENS_MEMORY="bogus", IOLENS_LOGDIR=sys.argv[2])
if sys.argv[1] != "none":
    env["LD_PRELOAD"] = sys.argv[1]
print(subprocess.run(["true"], stderr=w, env=env).returncode)
' "$lib" "$T")" "exit status of true with standard error a pipe nobody reads (LD_PRELOAD $lib)"
    done
fi

# A real program killed by SIGPIPE: yes | head.  What yes wrote before
# the reader left, against strace's successful writes of it.
if command -v strace >/dev/null 2>&1 && command -v yes >/dev/null 2>&1; then
    mkdir "$T/logs.yes"
    strace -f -qq -e trace=write -o "$T/yes.strace" env IOLENS_NONMPI=1 \
        IOLENS_LOGDIR="$T/logs.yes" LD_PRELOAD="$IOLENS_LIB" yes 2>/dev/null | head -c 10 >/dev/null
    LOG=$(ls "$T/logs.yes"/*.iolens 2>/dev/null | head -n 1)
    [ -n "$LOG" ] || LOG=$T/logs.yes/none
    require_log "$LOG"
    check_eq "killed by SIGPIPE" "$(grep -o 'killed by SIGPIPE' "$T/yes.strace" | head -n 1)" \
        "yes ends killed by SIGPIPE"
    set -- $(awk '/^[0-9]+ +write\(1,/ && $NF ~ /^[0-9]+$/ { n++; b += $NF }
        END { print n + 0, b + 0 }' "$T/yes.strace")
    check_gt "$1" 0 "writes of yes that strace saw"
    check_eq "$1" "$(counter "$LOG" "<STDOUT>" POSIX_WRITES)" "POSIX_WRITES of yes's stdout"
    check_eq "$2" "$(counter "$LOG" "<STDOUT>" POSIX_BYTES_WRITTEN)" \
        "POSIX_BYTES_WRITTEN of yes's stdout"
    check_eq "$INCOMPLETE" "$(header "$LOG" incomplete)" "incomplete mark of yes's log"
fi
finish
