#!/bin/sh
# SIGTERM (lib/core/termination.c): the log of the I/O done before the signal
# is written, marked incomplete, with exact counts; then the program's own
# handler or the default action runs as without iolens (same exit status,
# same output), and the program sees its own dispositions (prog_sigterm
# checks what sigaction()/signal() report).
. "$(dirname "$0")/common.sh"
iolens_setup

# run_both MODE: untraced, then traced with its logs in $T/logs.MODE;
# sets PLAIN/TRACED (exit statuses) and LOG (the one log written).
run_both() {
    mode_=$1
    "$PROGS/prog_sigterm" "$mode_" "$T/plain.$mode_" >"$T/plain.$mode_.out" 2>"$T/plain.$mode_.err"
    PLAIN=$?
    mkdir "$T/logs.$mode_"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs.$mode_" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_sigterm" "$mode_" "$T/data.$mode_" >"$T/traced.$mode_.out" 2>"$T/traced.$mode_.err"
    TRACED=$?
    check_eq "$PLAIN" "$TRACED" "exit status of $mode_ traced and untraced"
    check_eq "$(cat "$T/plain.$mode_.out")" "$(cat "$T/traced.$mode_.out")" "stdout of $mode_"
    # (the shell may add its own "Terminated" there, the same both times)
    check_eq "$(cat "$T/plain.$mode_.err")" "$(cat "$T/traced.$mode_.err")" "stderr of $mode_"
    check_eq 1 "$(ls -A "$T/logs.$mode_" | wc -l)" "files in the log directory of $mode_ (no temporary left)"
    LOG=$(ls "$T/logs.$mode_"/*.iolens 2>/dev/null | head -n 1)
    [ -n "$LOG" ] || LOG=$T/logs.$mode_/none
    require_log "$LOG"
}

# The three 1000-byte writes before the signal.
expect_writes_before_signal() {
    expect_counters "$LOG" "$T/data.$1" <<END
POSIX_OPENS 1
POSIX_WRITES 3
POSIX_BYTES_WRITTEN 3000
POSIX_MAX_BYTE_WRITTEN 2999
END
    # (with the threads' 0-byte reads in between, consecutive is undefined)
    [ "$1" = threads ] || check_eq 2 "$(counter "$LOG" "$T/data.$1" POSIX_CONSEC_WRITES)" \
        "POSIX_CONSEC_WRITES of data.$1"
}

for m in default handler-exit signal-exit threads; do
    run_both $m
    check_eq "yes (written at a signal that ends the process, or exit without MPI_Finalize)" "$(header "$LOG" incomplete)" \
        "incomplete mark of $m"
    expect_writes_before_signal $m
    case $m in
    default | threads) check_eq 143 "$TRACED" "$m: killed by SIGTERM under iolens" ;;
    handler-exit) check_eq 9 "$TRACED" "$m: the sigaction handler's exit status" ;;
    signal-exit) check_eq 11 "$TRACED" "$m: the signal() handler's exit status" ;;
    esac
done

# A handler that returns: the program goes on, and its log at exit (which
# replaces the one written at the signal) is complete.
run_both handler-back
check_eq 7 "$TRACED" "exit status after a handler that returned"
check_eq "<none>" "$(header "$LOG" incomplete)" "incomplete mark after the program went on"
check_eq 3500 "$(counter "$LOG" "$T/data.handler-back" POSIX_BYTES_WRITTEN)" \
    "bytes written before and after the handled signal"

# SIGTERM ignored before the program started stays ignored.
trap '' TERM
run_both ignored
trap - TERM
check_eq 5 "$TRACED" "exit status with SIGTERM ignored"
check_eq "<none>" "$(header "$LOG" incomplete)" "incomplete mark when SIGTERM is ignored"
check_eq 3000 "$(counter "$LOG" "$T/data.ignored" POSIX_BYTES_WRITTEN)" "bytes with SIGTERM ignored"

# SIGTERM from outside, as a batch system sends it; the log names the
# process itself, not the copy that wrote it.
mkdir "$T/logs.wait"
env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/logs.wait" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_sigterm" wait "$T/data.wait" >"$T/wait.out" &
pid=$!
tries=0
while [ "$(cat "$T/wait.out" 2>/dev/null)" != ready ] && [ $tries -lt 200 ]; do
    sleep 0.05
    tries=$((tries + 1))
done
kill -TERM $pid
wait $pid
check_eq 143 $? "exit status after an outside SIGTERM"
LOG=$(ls "$T/logs.wait"/*_"$pid".iolens 2>/dev/null)
[ -n "$LOG" ] || LOG=$T/logs.wait/none
require_log "$LOG"
check_eq "$pid" "$(header "$LOG" pid)" "pid in the log written at SIGTERM"
check_eq "<none>" "$(header "$LOG" parent_pid)" "parent_pid in the log written at SIGTERM"
expect_writes_before_signal wait
finish
