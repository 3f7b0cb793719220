#!/bin/sh
# Log safety (man iolens(7), LOG SAFETY): the mode of a log is exact
# (0400, or IOLENS_LOG_MODE) whatever the umask; a symlink planted at the
# log's name is never followed nor replaced (the log goes to <name>.<pid>);
# and a log that cannot be written
# (a file size limit, a full file system) costs exactly one stderr line,
# never the program's exit status or output, and leaves no file behind.
. "$(dirname "$0")/common.sh"
iolens_setup
mkdir "$T/errno" && printf '%0100d' 0 >"$T/errno/data" || fail "cannot make prog_errno's input"

# Runs prog_errno (exit status 7, no output) traced with the log at $1 and
# the extra environment $2...; sets STATUS, leaves $T/out and $T/err.
run_errno() {
    log=$1
    shift
    env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" "$@" \
        "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err"
    STATUS=$?
}

# Files in directory $1 whose name matches the pattern $2.
count_in() {
    find "$1" -mindepth 1 -maxdepth 1 -name "$2" | wc -l | tr -d ' '
}

# ------------------------------------------------------------------ modes --
for case in "000 - 400" "077 - 400" "000 0440 440" "077 0440 440" "027 0444 444" "077 0404 404"; do
    set -- $case
    log=$T/mode-$1-$2.iolens
    if [ "$2" = - ]; then
        (umask "$1" && run_errno "$log")
    else
        (umask "$1" && run_errno "$log" IOLENS_LOG_MODE="$2")
    fi
    require_log "$log"
    check_eq "$3" "$(stat -c %a "$log")" "mode of the log (umask $1, IOLENS_LOG_MODE $2)"
done
# A mode that would make the log writable, executable or unreadable by its
# owner is refused: 0400 and the one line that says so.
for bad in 0644 0600 0040 0455 rw 0999; do
    log=$T/bad-$bad.iolens
    run_errno "$log" IOLENS_LOG_MODE="$bad"
    check_eq 7 "$STATUS" "exit status with IOLENS_LOG_MODE=$bad"
    check_eq "iolens: IOLENS_LOG_MODE=$bad is not a read-only mode with owner read (0400, 0440, 0444); using 0400" \
        "$(cat "$T/err")" "stderr with IOLENS_LOG_MODE=$bad"
    check_eq 400 "$(stat -c %a "$log" 2>/dev/null)" "mode of the log with IOLENS_LOG_MODE=$bad"
done

# -------------------------------------------------- a symlink at the name --
# Someone plants a symlink where the log is to go, pointing at a file of
# theirs: it is neither followed nor replaced; the log goes to
# <name>.<pid> (prog_errno prints nothing: the shell's $! is its pid).
printf 'precious\n' >"$T/victim"
ln -s "$T/victim" "$T/planted.iolens"
env IOLENS_NONMPI=1 IOLENS_LOGFILE="$T/planted.iolens" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err" &
pid=$!
wait $pid
check_eq 7 "$?" "exit status with a symlink at the log's name"
check_eq "" "$(cat "$T/err")" "stderr with a symlink at the log's name"
check_eq "precious" "$(cat "$T/victim")" "the symlink's target after the run"
check_eq "$T/victim" "$(readlink "$T/planted.iolens")" "the symlink at the log's name"
require_log "$T/planted.iolens.$pid"
check_eq "$pid" "$(header "$T/planted.iolens.$pid" pid)" "pid in the log beside the symlink"
check_eq 400 "$(stat -c %a "$T/planted.iolens.$pid")" "mode of the log beside the symlink"
# A dangling symlink to a place the log must not create.
ln -s "$T/created-through-link" "$T/dangling.iolens"
run_errno "$T/dangling.iolens"
check_eq 7 "$STATUS" "exit status with a dangling symlink at the log's name"
[ -e "$T/created-through-link" ] && fail "the log was written through a dangling symlink"
pass
check_eq 1 "$(count_in "$T" 'dangling.iolens.[0-9]*')" "logs beside the dangling symlink"
check_eq 0 "$(count_in "$T" '*.tmp-*')" "temporary files left behind"

# -------------------------------------------------------- file size limit --
# ulimit -f: writing the log past the limit raises SIGXFSZ, which would
# kill the program (status 153) were it not ignored during the write.
dir=$T/limited
mkdir "$dir"
(ulimit -f 1 && run_errno "$dir/x.iolens" && echo "$STATUS" >"$T/status")
check_eq 7 "$(cat "$T/status")" "exit status under ulimit -f 1"
check_eq "" "$(cat "$T/out")" "stdout under ulimit -f 1"
check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines under ulimit -f 1"
check_eq "iolens: cannot write log $dir/x.iolens: write: File too large" "$(cat "$T/err")" \
    "message under ulimit -f 1"
check_eq 0 "$(count_in "$dir" '*')" "files left under ulimit -f 1"

# ----------------------------------------------------- a full file system --
full=$T/full
mkdir "$full"
if mount -t tmpfs -o size=4k iolens-test "$full" 2>/dev/null; then
    trap 'umount "$full" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
    # 2000 files: a log of about 40 KiB, which a 4 KiB file system cannot hold.
    mkdir "$T/many"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$full" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_many_files" "$T/many" 2000 >"$T/out" 2>"$T/err"
    check_eq 0 "$?" "exit status on a full file system"
    check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines on a full file system"
    if grep -Eq "^iolens: cannot write log $full/[^ ]*[.]iolens: write: No space left on device\$" "$T/err"; then
        pass
    else
        fail "message on a full file system: '$(cat "$T/err")'"
    fi
    check_eq 0 "$(count_in "$full" '*')" "files left on the full file system"
    umount "$full"
else
    echo "(no tmpfs mount here: the full file system case is skipped)"
fi

# --------------------------------------- a program that closes stderr --
# cat closes its standard error in an atexit handler, before the log is
# written: the one line still comes, through the runtime's own copy.
catfs=$T/catfs
mkdir "$catfs"
if mount -t tmpfs -o size=64k iolens-test "$catfs" 2>/dev/null; then
    trap 'umount "$catfs" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
    dd if=/dev/zero of="$catfs/fill" bs=4096 2>/dev/null # full
    printf 'hello\n' >"$T/hello"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$catfs" LD_PRELOAD="$IOLENS_LIB" \
        cat "$T/hello" >"$T/out" 2>"$T/err"
    check_eq 0 "$?" "exit status of cat on a full file system"
    check_eq hello "$(cat "$T/out")" "output of cat on a full file system"
    check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines of cat on a full file system"
    if grep -Eq "^iolens: cannot write log $catfs/[^ ]*_cat_[^ ]*[.]iolens: write: No space left on device\$" "$T/err"; then
        pass
    else
        fail "message of cat on a full file system: '$(cat "$T/err")'"
    fi
    check_eq fill "$(ls "$catfs")" "files left on the full file system by cat"
    umount "$catfs"
else
    echo "(no tmpfs mount here: the case of cat on a full file system is skipped)"
fi

# --------------------------------- a file the program put at descriptor 2 --
# The log's directory is missing, so the runtime has one line to say at
# exit.  A program that closed 2 and then opened a file got 2 for its
# data: the line goes to the copy of the stderr it started with, or
# nowhere, never into that file.  A file the program made its stderr on
# purpose (dup2, freopen) gets the line.
missing=$T/missing/dir
msg="^iolens: cannot write log $missing: cannot create the log directory: No such file or directory\$"
run_stderr_fd() {
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$missing" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_stderr_fd" "$@"
}
rm -f "$T/data"
run_stderr_fd data "$T/data" 2>"$T/err"
check_eq 0 "$?" "exit status with a data file at descriptor 2"
check_eq DATA "$(cat "$T/data")" "data file at descriptor 2, stderr a file"
check_eq 1 "$(grep -c "$msg" "$T/err")" "message on the first stderr, a data file at descriptor 2"
check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines with a data file at descriptor 2"
rm -f "$T/data"
got=$(run_stderr_fd data "$T/data" 2>&1 | cat)
check_eq "" "$got" "stderr, a pipe (no copy), with a data file at descriptor 2"
check_eq DATA "$(cat "$T/data")" "data file at descriptor 2, stderr a pipe"
rm -f "$T/data"
run_stderr_fd data "$T/data" 2>&-
check_eq 0 "$?" "exit status with a data file at descriptor 2, started without one"
check_eq DATA "$(cat "$T/data")" "data file at descriptor 2, started with it closed"
for how in dup2 freopen; do
    rm -f "$T/redirected"
    run_stderr_fd "$how" "$T/redirected" 2>"$T/err"
    check_eq 0 "$?" "exit status with stderr redirected by $how"
    check_eq 1 "$(grep -c "$msg" "$T/redirected")" "message in the stderr made by $how"
    check_eq 1 "$(wc -l <"$T/redirected" | tr -d ' ')" "lines in the stderr made by $how"
    check_eq "" "$(cat "$T/err")" "first stderr, after $how made another"
done

# ------------------------------------------ a program out of descriptors --
# A program that leaked descriptors until open failed with EMFILE, then
# ended, still gets its log: the soft limit is raised by a few for it,
# within the hard limit.  A log written before an exec puts the limit
# back: the exec'd image sees the program's own soft limit.
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 64 ]; then
    mkdir "$T/nofile" "$T/nofile.logs"
    run_fd_limit() {
        (ulimit -Sn 64 && env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/nofile.logs" \
            LD_PRELOAD="$IOLENS_LIB" "$PROGS/prog_fd_limit" "$T/nofile" "$@") 2>"$T/err"
    }
    out=$(run_fd_limit)
    check_eq 0 "$?" "exit status of a program out of descriptors"
    opened=${out% *}
    check_eq EMFILE "${out#* }" "why the last open of a program out of descriptors failed"
    check_eq "" "$(cat "$T/err")" "stderr of a program out of descriptors"
    log=$(ls "$T/nofile.logs"/*.iolens 2>/dev/null | head -n 1)
    require_log "${log:-$T/nofile.logs/none}"
    check_eq $((opened + 1)) "$(counter "$log" "$T/nofile/data" POSIX_OPENS)" \
        "opens in the log of a program out of descriptors"
    check_eq 100 "$(counter "$log" "$T/nofile/data" POSIX_BYTES_WRITTEN)" \
        "bytes in the log of a program out of descriptors"
    check_eq "$(id -un)" "$(header "$log" user)" "user named in the log of a program out of descriptors"
    rm -f "$T/nofile.logs"/*
    out=$(run_fd_limit sh -c 'ulimit -Sn')
    check_eq 0 "$?" "exit status of a program out of descriptors that execs"
    check_eq 64 "$(printf '%s\n' "$out" | sed -n 2p)" "soft descriptor limit after the log written before exec"
    check_eq 2 "$(ls "$T/nofile.logs" | wc -l)" "logs of a program out of descriptors and of the image it execs"
    check_eq "" "$(cat "$T/err")" "stderr of a program out of descriptors that execs"
else
    echo "(hard descriptor limit $hard: the case of a program out of descriptors is skipped)"
fi

# No copy of a pipe: a daemon that closes its standard output and error
# lets its reader see end-of-file at once, not when it ends 4 s later.
start=$(date +%s)
got=$(env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T" LD_PRELOAD="$IOLENS_LIB" \
    sh -c '(exec >&- 2>&- </dev/null; sleep 4) & echo started' 2>&1)
took=$(($(date +%s) - start))
check_eq started "$got" "output of the daemonizing shell"
check_le "$took" 2 "seconds until end-of-file from a daemon that closed its stderr pipe"
# The copy of a file on stderr sits at descriptor 1000 (limit 1024 here),
# in a traced process only: ls lists its own descriptors (3 is the
# listing; the test harness may pass down others, in both runs alike).
fds() {
    (ulimit -n 1024 && env "$@" LD_PRELOAD="$IOLENS_LIB" IOLENS_LOGDIR="$T" ls /proc/self/fd \
        2>"$T/fds.err" | sort -n | tr '\n' ' ' | sed 's/ $//')
}
untraced=$(fds IOLENS_NONMPI=0)
check_eq "$untraced 1000" "$(fds IOLENS_NONMPI=1)" "descriptors of a traced ls with stderr on a file"
case " $untraced " in
*" 1000 "*) fail "an untraced ls has descriptor 1000: $untraced" ;;
*) pass ;;
esac
finish
