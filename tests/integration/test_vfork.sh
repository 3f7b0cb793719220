#!/bin/sh
# A vfork child runs on its parent's memory until it execs or exits, and
# the runtime's data is part of that memory.  Before the child passed its
# calls through, its dup2 of the parent's file onto stdout made the
# parent's own stdout count as that file, its close_range dropped the
# parent's descriptors, and its SIGTERM disposition became the parent's.
# See prog_vfork.c for the calls; then Python's subprocess, which vforks.
. "$(dirname "$0")/common.sh"
iolens_setup

# The number of logs named NAME* in $T (the parser's outputs left out).
logs_named() {
    find "$T" -maxdepth 1 -name "$1*" ! -name '*.base' ! -name '*.total' ! -name '*.err' |
        wc -l | tr -d ' '
}

# What the parent did, in LOG: 10 and 20 bytes written to FILE around the
# child, 31 to its stdout (STDOUT, the file it went to).  Oracle: the
# bytes that reached the file and the stdout.
check_parent_io() {
    check_eq 30 "$(wc -c <"$2" | tr -d ' ')" "bytes in $2"
    check_eq 31 "$(wc -c <"$3" | tr -d ' ')" "bytes in $3"
    expect_counters "$1" "$2" <<END
POSIX_OPENS 1
POSIX_WRITES 2
POSIX_BYTES_WRITTEN 30
POSIX_DUPS 0
END
    expect_counters "$1" "<STDOUT>" <<END
POSIX_WRITES 1
POSIX_BYTES_WRITTEN 31
END
}

for how in exec exit; do
    log=$T/$how.iolens
    run_traced "$log" "$PROGS/prog_vfork" "$T/file.$how" "$how" >"$T/stdout.$how" ||
        fail "prog_vfork $how exited with status $?"
    require_log "$log"
    check_eq 1 "$(logs_named "$how.iolens")" "logs of prog_vfork $how"
    check_parent_io "$log" "$T/file.$how" "$T/stdout.$how"
done

# badexec: the child's exec fails and it calls exit() (not _exit), which
# runs the process's exit handlers, the runtime's included, on the
# parent's memory; glibc does not run them again when the parent exits.
# The log is written then, with what the parent did before the vfork, and
# marked incomplete (iolens(7)); before, it was not marked.
log=$T/badexec.iolens
run_traced "$log" "$PROGS/prog_vfork" "$T/file.badexec" badexec >"$T/stdout.badexec" ||
    fail "prog_vfork badexec exited with status $?"
require_log "$log"
check_eq 1 "$(logs_named badexec.iolens)" "logs of prog_vfork badexec"
check_eq "yes (written at a signal that ends the process, or exit without MPI_Finalize)" "$(header "$log" incomplete)" \
    "incomplete mark of the log a vfork child's exit() wrote"
check_eq 30 "$(wc -c <"$T/file.badexec" | tr -d ' ')" "bytes in file.badexec"
expect_counters "$log" "$T/file.badexec" <<END
POSIX_OPENS 1
POSIX_WRITES 1
POSIX_BYTES_WRITTEN 10
POSIX_DUPS 0
END

# killed: the child dies of SIGINT at its default action, whose handler
# is the runtime's, on the parent's memory.  Its log there would be the
# parent's and use up the parent's own: the parent, killed by SIGINT in
# its turn, left only the child's, with 10 bytes.
log=$T/killed.iolens
run_traced "$log" "$PROGS/prog_vfork" "$T/file.killed" killed >"$T/stdout.killed"
check_eq 130 $? "exit status of prog_vfork killed (SIGINT)"
require_log "$log"
check_eq 1 "$(logs_named killed.iolens)" "logs of prog_vfork killed"
check_eq "yes (written at a signal that ends the process, or exit without MPI_Finalize)" \
    "$(header "$log" incomplete)" "incomplete mark of the log written at the parent's SIGINT"
check_parent_io "$log" "$T/file.killed" "$T/stdout.killed"

# Python's subprocess.run(stdout=f) vforks a child that dup2s f onto its
# stdout and close_ranges the rest.  The child runs untraced, so that its
# log does not take the log's name.
PYTHON=$(python_interpreter)
if [ -n "$PYTHON" ]; then
    script='
import os, subprocess, sys
f = open(sys.argv[1], "w")
f.write("a" * 10); f.flush()
env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
subprocess.run(["true"], stdout=f, env=env, check=True)
f.write("b" * 20); f.flush()
sys.stdout.write("c" * 30 + "\n"); sys.stdout.flush()
f.close()
'
    log=$T/py.iolens
    run_traced "$log" "$PYTHON" -c "$script" "$T/py.out" >"$T/py.stdout" ||
        fail "python3 exited with status $?"
    require_log "$log"
    check_parent_io "$log" "$T/py.out" "$T/py.stdout"
fi
finish
