#!/bin/sh
# Where logs go, and what they never touch (iolens(7), LOG SAFETY):
# - IOLENS_LOGFILE is never replaced: each later process of an exec chain
#   (timeout dd, tar czf and its gzip) gets PATH.<pid>, as does a parent
#   whose posix_spawn child ends first; a file, a device or a symlink
#   already at PATH stays as it was;
# - a log directory that is a symlink, or another user's that anyone may
#   write without the sticky bit, is refused with one line; a sticky one
#   is used;
# - a missing IOLENS_LOGDIR is made private (0700).
. "$(dirname "$0")/common.sh"
iolens_setup
mkdir "$T/errno" && printf '%0100d' 0 >"$T/errno/data" || fail "cannot make prog_errno's input"

# Files in directory $1 whose name matches the pattern $2.
count_in() {
    find "$1" -mindepth 1 -maxdepth 1 -name "$2" | wc -l | tr -d ' '
}

# The logs at PATH $1: PATH itself, PATH.<pid> and PATH.<pid>-<8 hex
# digits>, without the parser output the helpers leave beside each log
# (LOG.base ...).
logs_at() {
    find "$(dirname "$1")" -mindepth 1 -maxdepth 1 -name "$(basename "$1")*" |
        grep -E -e "^$1(\.[0-9]+(-[0-9a-f]{8})?)?\$" | sort
}

# The executable's base name in a log's header.
exe_of() {
    header "$1" exe | cut -d' ' -f1
}

# ------------------------------------------------------- exec chains (§5) --
# timeout forks and execs dd; dd ends first and takes PATH, timeout's log
# goes beside it as PATH.<pid>.  Neither replaces the other.
mkdir "$T/chain"
log=$T/chain/t.iolens
env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" \
    timeout 30 dd if=/dev/zero of="$T/dd.out" bs=4096 count=10 2>/dev/null
check_eq 0 "$?" "exit status of timeout dd"
check_eq 2 "$(count_in "$T/chain" 't.iolens*')" "logs of timeout dd"
dd_log= timeout_log=
for f in $(logs_at "$log"); do
    require_log "$f"
    case $(exe_of "$f") in
    dd) dd_log=$f ;;
    timeout) timeout_log=$f ;;
    esac
done
check_eq 40960 "$(counter "$dd_log" "$T/dd.out" POSIX_BYTES_WRITTEN)" "bytes dd wrote, in dd's log"
check_eq "$log.$(header "$timeout_log" pid)" "$timeout_log" "timeout's log is PATH.<its pid>"

# tar czf: tar forks gzip, which writes the archive.
mkdir "$T/tree" "$T/tarlogs"
printf '%0200000d' 0 >"$T/tree/a"
log=$T/tarlogs/t.iolens
(cd "$T" && env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" tar czf "$T/a.tgz" tree)
check_eq 0 "$?" "exit status of tar czf"
# tar starts gzip through "sh -c gzip" here: one log per process image,
# each its own, tar's and gzip's among them.
nlogs=$(count_in "$T/tarlogs" 't.iolens*')
gzip_log= tar_log=
for f in $(logs_at "$log"); do
    require_log "$f"
done
# A pid may have two logs, its image before an exec and the one after:
# one log per (pid, executable).
for f in $(logs_at "$log"); do
    echo "$(header "$f" pid) $(exe_of "$f")"
    case $(exe_of "$f") in
    gzip) gzip_log=$f ;;
    tar) [ "$(header "$f" exec)" = "<none>" ] && tar_log=$f ;;
    esac
done >"$T/tar.pids"
check_eq "$nlogs" "$(sort -u "$T/tar.pids" | grep -c '^[0-9]')" \
    "logs of tar czf, one per process image"
[ -n "$tar_log" ] || fail "no log of tar"
[ -n "$gzip_log" ] || fail "no log of gzip"
# gzip writes the archive to its standard output, the .tgz that tar
# opened for it.
check_eq "$(stat -c %s "$T/a.tgz")" "$(counter "$gzip_log" "<STDOUT>" POSIX_BYTES_WRITTEN)" \
    "bytes of the .tgz in gzip's log"
# posix_spawn and system(): each child is a new image, not a forked
# child, so the first to end (the posix_spawn one: prog_procs waits for
# each in turn) takes PATH, and the parent's log is PATH.<its pid>.
mkdir "$T/spawn" "$T/spawnlogs"
log=$T/spawnlogs/p.iolens
env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_procs" spawn "$T/spawn" "$PROGS/prog_procs"
check_eq 0 "$?" "exit status of prog_procs spawn"
require_log "$log"
check_eq 300 "$(counter "$log" "$T/spawn/spawned" POSIX_BYTES_WRITTEN)" \
    "bytes the posix_spawn child wrote, in the log at PATH"
check_eq 0 "$(records_of "$log" "$T/spawn/parent")" "the parent's file in the log at PATH"
parent_log=
for f in $(logs_at "$log" | grep -v -x -e "$log"); do
    require_log "$f"
    [ "$(records_of "$f" "$T/spawn/parent")" = 0 ] || parent_log=$f
done
check_eq "$log.$(header "$parent_log" pid)" "$parent_log" "the parent's log is PATH.<its pid>"
check_eq 1000 "$(counter "$parent_log" "$T/spawn/parent" POSIX_BYTES_WRITTEN)" \
    "bytes the parent wrote, in its log"
# The parser's many-log modes tell the processes apart.
check_eq "dd timeout" "$("$IOLENS_PARSER" --summary "$T/chain/t.iolens" "$T/chain/t.iolens".* |
    awk -F'\t' 'NR > 1 { print $2 }' | sort | tr '\n' ' ' | sed 's/ $//')" \
    "executables in --summary of the chain's logs"

# --------------------------------------- what is at IOLENS_LOGFILE stays --
# A regular file: its bytes and mode are kept; the log is PATH.<pid>.
printf 'keep me\n' >"$T/existing"
chmod 640 "$T/existing"
env IOLENS_NONMPI=1 IOLENS_LOGFILE="$T/existing" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err" &
pid=$!
wait $pid
check_eq 7 "$?" "exit status with a file at IOLENS_LOGFILE"
check_eq "keep me" "$(cat "$T/existing")" "the file at IOLENS_LOGFILE"
check_eq 640 "$(stat -c %a "$T/existing")" "mode of the file at IOLENS_LOGFILE"
check_eq "" "$(cat "$T/err")" "stderr with a file at IOLENS_LOGFILE"
require_log "$T/existing.$pid"
check_eq "$pid" "$(header "$T/existing.$pid" pid)" "pid in the log beside the file"

# A character device (root makes one; /dev/null itself is the same kind).
if [ "$(id -u)" = 0 ] && mknod "$T/chardev" c 1 3 2>/dev/null; then
    env IOLENS_NONMPI=1 IOLENS_LOGFILE="$T/chardev" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err" &
    pid=$!
    wait $pid
    check_eq "character special file" "$(stat -c %F "$T/chardev")" "the device at IOLENS_LOGFILE"
    require_log "$T/chardev.$pid"
else
    echo "(not root: the character device case is skipped)"
fi

# PATH and PATH.<pid> both taken (the shell plants them, then execs the
# program under its own pid): a third name, PATH.<pid>-<8 hex digits>.
printf 'first\n' >"$T/taken"
env IOLENS_NONMPI=1 IOLENS_LOGFILE="$T/taken" LD_PRELOAD="$IOLENS_LIB" \
    sh -c 'ln -s "$1" "$2.$$" && exec "$0" "$3" 7' "$PROGS/prog_errno" "$T/victim" "$T/taken" \
    "$T/errno" >"$T/out" 2>"$T/err" &
pid=$!
wait $pid
check_eq 7 "$?" "exit status with PATH and PATH.<pid> taken"
check_eq "first" "$(cat "$T/taken")" "the file at PATH"
[ -e "$T/victim" ] && fail "the symlink at PATH.<pid> was followed"
pass
check_eq "$T/victim" "$(readlink "$T/taken.$pid")" "the symlink at PATH.<pid>"
# The shell may have a log there too, written at its exec (its stat of
# each PATH directory for ln counts as I/O): every such name is
# PATH.<pid>-<8 hex digits>, and prog_errno's is one of them.
third=
for f in $(find "$T" -maxdepth 1 -name "taken.$pid-*"); do
    case ${f##*/} in
    taken.$pid-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) pass ;;
    *) fail "a third name is not taken.$pid-<8 hex digits>: '$f'" ;;
    esac
    require_log "$f"
    exe=$(exe_of "$f")
    case ${exe##*/} in
    prog_errno) third=$f ;;
    sh) check_eq "yes (written at execve; the program that followed, same pid, has its own log)" \
        "$(header "$f" exec)" "the shell's log at PATH.<pid>-<hex>" ;;
    *) fail "a log at $f of $(exe_of "$f")" ;;
    esac
done
[ -n "$third" ] || fail "no log of prog_errno at taken.$pid-<8 hex digits>"

# ------------------------------------------------------- the log directory --
# A symlink as the log directory is refused (never followed): one line.
mkdir "$T/real"
ln -s "$T/real" "$T/linkdir"
env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/linkdir" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err"
check_eq 7 "$?" "exit status with a symlinked log directory"
check_eq 0 "$(count_in "$T/real" '*')" "files in the symlink's target"
check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines with a symlinked log directory"
if grep -Eq "^iolens: cannot write log $T/linkdir/[^ ]*[.]iolens: the log directory is a symbolic link; refused\$" "$T/err"; then
    pass
else
    fail "message with a symlinked log directory: '$(cat "$T/err")'"
fi

# A missing IOLENS_LOGDIR is made, private to its user.
env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/new" LD_PRELOAD="$IOLENS_LIB" \
    "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err"
check_eq 700 "$(stat -c %a "$T/new")" "mode of a log directory iolens made"
check_eq 1 "$(count_in "$T/new" '*.iolens')" "logs in the directory iolens made"
check_eq "" "$(cat "$T/err")" "stderr when IOLENS_LOGDIR is made"

# Another user's directory that anyone may write: refused unless sticky.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    mkdir "$T/open" && chown nobody "$T/open" && chmod 0777 "$T/open"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/open" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err"
    check_eq 7 "$?" "exit status with another user's world-writable log directory"
    check_eq 0 "$(count_in "$T/open" '*')" "files in another user's world-writable directory"
    if grep -Eq "^iolens: cannot write log $T/open/[^ ]*: the log directory belongs to another user and anyone may write to it without the sticky bit; refused\$" "$T/err"; then
        pass
    else
        fail "message with another user's world-writable directory: '$(cat "$T/err")'"
    fi
    chmod 1777 "$T/open"
    env IOLENS_NONMPI=1 IOLENS_LOGDIR="$T/open" LD_PRELOAD="$IOLENS_LIB" \
        "$PROGS/prog_errno" "$T/errno" 7 >"$T/out" 2>"$T/err"
    check_eq "" "$(cat "$T/err")" "stderr with another user's sticky directory"
    check_eq 1 "$(count_in "$T/open" '*.iolens')" "logs in another user's sticky directory"
else
    echo "(not root: the other user's directory case is skipped)"
fi
finish
