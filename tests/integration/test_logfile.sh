#!/bin/sh
# Where the log goes: IOLENS_LOGFILE, IOLENS_LOGDIR and the default name
# pattern; mode 0400; a log that cannot be written costs one stderr line
# and never the application's exit status.
. "$(dirname "$0")/common.sh"
iolens_setup
unset SLURM_JOB_ID PBS_JOBID LSB_JOBID FLUX_JOB_ID

# Exact path.
log=$T/exact.iolens
run_traced "$log" "$PROGS/prog_writes" "$T/data" || fail "prog_writes exited with status $?"
require_log "$log"
check_eq 400 "$(stat -c %a "$log")" "mode of the log"
check_eq 1000 "$(counter "$log" "$T/data" POSIX_WRITES)" "POSIX_WRITES in the exact-path log"
check_eq "" "$(ls "$T" | grep -e '\.tmp-')" "temporary files left behind"

# Log directory and name: <user>_<exe>_<jobid>_<YYYYmmdd-HHMMSS>_<token>_<pid>.iolens,
# the job id being the pid outside a batch system, the token 8 random hex
# digits.
dir=$T/logs
mkdir "$dir" || fail "cannot make $dir"
before=$(date +%Y%m%d-%H%M%S)
pid=$(env IOLENS_NONMPI=1 IOLENS_LOGDIR="$dir" LD_PRELOAD="$IOLENS_LIB" \
    sh -c 'echo $$; exec "$0" "$1" >/dev/null' "$PROGS/prog_writes" "$T/data2")
after=$(date +%Y%m%d-%H%M%S)
# The shell wrote to stdout before its exec: it has a log of its own too,
# with the same pid (iolens(7), PROCESSES AND LOGS).
name=$(ls "$dir" | grep '_prog_writes_')
user=$(id -un)
check_eq 2 "$(ls "$dir" | wc -l)" "logs in IOLENS_LOGDIR (the shell's, written at its exec, and prog_writes's)"
check_eq 1 "$(ls "$dir" | grep -c "^${user}_sh_${pid}_.*_${pid}\.iolens\$")" "the shell's log"
stamp=$(echo "$name" | sed -n "s/^${user}_prog_writes_${pid}_\([0-9]\{8\}-[0-9]\{6\}\)_[0-9a-f]\{8\}_${pid}\.iolens\$/\1/p")
if [ -z "$stamp" ]; then
    fail "log name '$name' is not ${user}_prog_writes_${pid}_<YYYYmmdd-HHMMSS>_<token>_${pid}.iolens"
else
    pass
    [ "$(printf '%s\n%s\n%s\n' "$before" "$stamp" "$after" | sort | tr '\n' ' ')" = "$before $stamp $after " ] ||
        fail "time stamp $stamp is not between $before and $after"
    pass
    require_log "$dir/$name"
    check_eq 400 "$(stat -c %a "$dir/$name")" "mode of the log in IOLENS_LOGDIR"
fi

# A batch system's job id is used in the name and the header.
dir=$T/slurm
mkdir "$dir" || fail "cannot make $dir"
env IOLENS_NONMPI=1 IOLENS_LOGDIR="$dir" LD_PRELOAD="$IOLENS_LIB" SLURM_JOB_ID=4242 \
    "$PROGS/prog_writes" "$T/data3" || fail "prog_writes exited with status $?"
name=$(ls "$dir")
case $name in
"${user}_prog_writes_4242_"*.iolens) pass ;;
*) fail "log name '$name' does not carry SLURM_JOB_ID 4242" ;;
esac
if [ -n "$name" ]; then
    require_log "$dir/$name"
    check_eq 4242 "$(header "$dir/$name" jobid)" "job id in the header"
fi

# The log cannot be written: a missing directory for IOLENS_LOGFILE, a
# file in the way of IOLENS_LOGDIR.  (chmod would not stop root.)
: >"$T/plainfile"
mkdir "$T/errno" && printf '%0100d' 0 >"$T/errno/data" || fail "cannot make prog_errno's input"
for case in "IOLENS_LOGFILE=$T/missing/x.iolens" "IOLENS_LOGDIR=$T/plainfile/sub"; do
    path=${case#*=}
    env IOLENS_NONMPI=1 "$case" LD_PRELOAD="$IOLENS_LIB" "$PROGS/prog_errno" "$T/errno" 7 \
        >"$T/out" 2>"$T/err"
    check_eq 7 $? "exit status when the log cannot be written ($case)"
    check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines when the log cannot be written ($case)"
    grep -q -F "$path" "$T/err" || fail "the stderr line does not name $path: $(cat "$T/err")"
    pass
    case $case in
    IOLENS_LOGFILE=*) reason="No such file or directory" ;;
    *) reason="Not a directory" ;;
    esac
    grep -q -F "$reason" "$T/err" || fail "the stderr line does not say '$reason': $(cat "$T/err")"
    pass
    check_eq "" "$(cat "$T/out")" "stdout when the log cannot be written"
done
finish
