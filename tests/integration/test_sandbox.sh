#!/bin/sh
# A program that enters a seccomp sandbox (prog_sandbox.c), under which
# opening or renaming a file kills the process: traced, it must end as it
# does untraced (status 0, or SIGTERM's 143), never of SIGSYS (159) from a
# system call of the runtime's.  The runtime says so in one line, stops
# tracing before the filter goes in, writes no log, and gives the
# application its own signal dispositions back.
. "$(dirname "$0")/common.sh"
iolens_setup
msg='^iolens: the program enters a seccomp sandbox: tracing stops here and no log is written'

for how in prctl libseccomp; do
    mkdir "$T/$how" "$T/$how.logs"
    out=$("$PROGS/prog_sandbox" "$T/$how" "$how" 2>"$T/err")
    status=$?
    if [ "$status" = 77 ]; then
        echo "(no libseccomp.so.2: the $how case is skipped)"
        continue
    fi
    check_eq 0 "$status" "untraced exit status, $how"
    check_eq sandboxed "$out" "untraced output, $how"
    for term in "" term; do
        want=0
        [ -n "$term" ] && want=143
        rm -f "$T/$how.logs"/*
        out=$(env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/$how.logs" LD_PRELOAD="$IOLENS_LIB" \
            "$PROGS/prog_sandbox" "$T/$how" "$how" $term 2>"$T/err")
        status=$?
        check_eq "$want" "$status" "traced exit status, $how $term (159: killed by the sandbox)"
        check_eq sandboxed "$out" "traced output, $how $term"
        check_eq 1 "$(grep -c "$msg" "$T/err")" "the runtime's line, $how $term"
        check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines, $how $term"
        check_eq "" "$(ls "$T/$how.logs")" "logs of a sandboxed process, $how $term"
        check_eq hello "$(cat "$T/$how/before")" "the file written before the sandbox, $how $term"
    done
done
finish
