#!/bin/sh
# Processes made by a traced process (prog_procs.c): fork while other
# threads keep the runtime's locks busy (no child may deadlock on a lock
# held by a thread that does not exist in it), posix_spawn, vfork + exec,
# system() and exec.  Every process logs its own I/O once: a forked child
# from the fork on, an exec'd image from its start; nothing is counted
# twice.
. "$(dirname "$0")/common.sh"
iolens_setup

NFORK=50

# ------------------------------------------------- fork with busy locks --
mkdir "$T/fork" "$T/fork.logs"
# timeout: a child stuck on a lock must fail the test, not hang it.
out=$(timeout 60 env IOLENS_NONMPI=1 IOLENS_LOGFILE="$T/fork.logs/parent.iolens" \
    LD_PRELOAD="$IOLENS_LIB" "$PROGS/prog_procs" fork-busy "$T/fork")
check_eq 0 $? "prog_procs fork-busy exit status (124: a child deadlocked)"
set -- $out
parent=${1:-0}
reads=${2:-0}
opens=${3:-0}
check_gt "$reads" 0 "preads of the busy threads"
log=$T/fork.logs/parent.iolens
require_log "$log"
check_eq "$parent" "$(header "$log" pid)" "pid in the parent's log"
# The parent: its 1000-byte write and its threads' reads and opens; none
# of the children's I/O.
expect_counters "$log" "$T/fork/shared" <<END
POSIX_OPENS $((1 + opens))
POSIX_WRITES 1
POSIX_BYTES_WRITTEN 1000
POSIX_READS $reads
POSIX_BYTES_READ $reads
END
check_eq 0 "$(base_of "$log" | awk -F'\t' '$6 ~ /\/child\.[0-9]+$/' | wc -l)" \
    "children's files in the parent's log"

# One log per child (IOLENS_LOGFILE.<pid>), each with its own I/O only.
check_eq $((NFORK + 1)) "$(ls "$T/fork.logs" | grep -c '\.iolens\(\.[0-9]*\)\?$')" "logs of parent and children"
bad=0
seen=""
for clog in "$T/fork.logs"/parent.iolens.*; do
    case $clog in *.base | *.total | *.err) continue ;; esac
    require_log "$clog"
    child_file=$(base_of "$clog" | awk -F'\t' '$6 ~ /\/child\.[0-9]+$/ { print $6; exit }')
    got="$(header "$clog" parent_pid) $(counter "$clog" "$T/fork/shared" POSIX_READS)"
    got="$got $(counter "$clog" "$T/fork/shared" POSIX_BYTES_READ)"
    got="$got $(counter "$clog" "$T/fork/shared" POSIX_WRITES) $(counter "$clog" "$T/fork/shared" POSIX_OPENS)"
    got="$got $(counter "$clog" "$child_file" POSIX_BYTES_WRITTEN) $(records_of "$clog" "$child_file")"
    if [ "$got" != "$parent 10 100 0 0 100 1" ]; then
        fail "child log $clog: parent_pid, reads, bytes read, writes and opens of shared, bytes and records of $child_file: $got"
        bad=$((bad + 1))
    fi
    seen="$seen ${child_file##*.}"
done
check_eq 0 "$bad" "child logs with other than their own I/O"
check_eq "$NFORK" "$(echo $seen | tr ' ' '\n' | sort -un | wc -l)" "children with a log of their own"

# ------------------------------------- posix_spawn, vfork + exec, system --
mkdir "$T/spawn" "$T/spawn.logs"
timeout 60 env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/spawn.logs" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_procs" spawn "$T/spawn" "$PROGS/prog_procs"
check_eq 0 $? "prog_procs spawn exit status"
# The log holding FILE's records (exactly one log must hold them).
log_with() {
    n=0
    found=$T/spawn.logs/none
    for l in "$T/spawn.logs"/*.iolens; do
        [ -f "$l.base" ] || "$IOLENS_PARSER" --base "$l" >"$l.base" 2>/dev/null
        if [ "$(records_of "$l" "$1")" != 0 ]; then
            n=$((n + 1))
            found=$l
        fi
    done
    check_eq 1 "$n" "logs with records of $1"
    echo "$found" >"$T/found"
}
for l in "$T/spawn.logs"/*.iolens; do require_log "$l"; done
for spec in parent:1000 parent-after:234 spawned:300 vforked:400 system:500; do
    name=${spec%:*}
    bytes=${spec#*:}
    log_with "$T/spawn/$name"
    l=$(cat "$T/found")
    check_eq "$bytes" "$(counter "$l" "$T/spawn/$name" POSIX_BYTES_WRITTEN)" "bytes written to $name"
    case $name in parent-after)
        # still traced after the bare vfork child's _exit, in the same log
        check_eq "$parent_log" "$l" "the log of parent-after (the parent's)" ;;
    parent) parent_log=$l ;;
    esac
    if [ "${name%-after}" != parent ]; then
        check_eq 0 "$(records_of "$l" "$T/spawn/parent")" "the parent's file in the log of $name"
        check_eq "<none>" "$(header "$l" parent_pid)" "parent_pid of the exec'd image writing $name"
    fi
done

# ------------------------------------------------------------------ exec --
mkdir "$T/exec" "$T/exec.logs"
pid=$(timeout 60 env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/exec.logs" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_procs" exec "$T/exec" "$PROGS/prog_procs")
check_eq 0 $? "prog_procs exec exit status"
check_eq 2 "$(ls "$T/exec.logs" | wc -l)" "logs after exec (the image before exec writes its own)"
before=$T/exec.logs/none
log=$T/exec.logs/none
for l in "$T/exec.logs"/*_"$pid".iolens; do
    [ -f "$l" ] || continue
    if "$IOLENS_PARSER" --base "$l" | grep -q '^# exec: yes'; then before=$l; else log=$l; fi
done
require_log "$before"
require_log "$log"
check_eq 100 "$(counter "$before" "$T/exec/before-exec" POSIX_BYTES_WRITTEN)" "bytes of the image before exec"
check_eq 0 "$(records_of "$before" "$T/exec/exec")" "records of the new image in the log before exec"
check_eq 600 "$(counter "$log" "$T/exec/exec" POSIX_BYTES_WRITTEN)" "bytes of the exec'd image"
check_eq 0 "$(records_of "$log" "$T/exec/before-exec")" "records from before exec in the new image's log"
check_eq "$pid" "$(header "$log" pid)" "pid of the exec'd image"
check_eq "$pid" "$(header "$before" pid)" "pid of the image before exec"

# ------------------------------------------------------------ quick_exit --
# quick_exit runs the at_quick_exit handlers and ends without the
# destructors: the log is written after the program's own handler.
mkdir "$T/qexit" "$T/qexit.logs"
timeout 60 env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/qexit.logs" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_procs" quick-exit "$T/qexit" 2>"$T/qexit.err"
check_eq 5 $? "prog_procs quick-exit exit status"
check_eq "" "$(cat "$T/qexit.err")" "stderr of prog_procs quick-exit"
check_eq 1 "$(ls "$T/qexit.logs" | wc -l)" "logs after quick_exit"
log=$(ls "$T/qexit.logs"/*.iolens 2>/dev/null | head -n 1)
require_log "${log:-$T/qexit.logs/none}"
check_eq 100 "$(counter "$log" "$T/qexit/before-quick-exit" POSIX_BYTES_WRITTEN)" "bytes written before quick_exit"
check_eq 50 "$(counter "$log" "$T/qexit/quick-exit-handler" POSIX_BYTES_WRITTEN)" "bytes written by the at_quick_exit handler"
check_eq "<none>" "$(header "$log" incomplete)" "incomplete mark of quick_exit's log"
finish
