#!/bin/sh
# A job whose log cannot be written: a missing directory, a permission
# problem, a path through a regular file, a full file system (on one rank or
# several).  Each time: the program's exit status and output are unchanged,
# exactly one line "iolens: cannot write log <path>: <reason>" appears on
# stderr (from rank 0), and no log and no temporary file is left.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup

# expect_failure WHAT PATH REASON-PATTERN (a grep -E pattern of the line)
expect_failure() {
    check_eq 3 "$STATUS" "exit status of the job, $1"
    check_eq "x x x x" "$(tr '\n' ' ' <"$OUT" | sed 's/ $//')" "stdout of the job, $1"
    check_eq 1 "$(wc -l <"$ERR" | tr -d ' ')" "lines on stderr, $1"
    if grep -Eq "^iolens: cannot write log $2: $3\$" "$ERR"; then
        pass
    else
        fail "message, $1: '$(cat "$ERR")'"
    fi
    check_eq 0 "$(logs_in "$LOGDIR")" "logs in the log directory, $1"
}

# The untraced run, for comparison: status 3, four lines of output.
dir=$T/untraced
mkdir -p "$dir"
mpi_run -n 4 "$JOB_PROG" status "$dir" 3 >"$dir/out" 2>"$dir/err"
check_eq 3 "$?" "exit status of the untraced job"
check_eq "x x x x" "$(tr '\n' ' ' <"$dir/out" | sed 's/ $//')" "stdout of the untraced job"

# A log directory two levels below a missing one (only one level is made).
launch 4 status 3 "IOLENS_LOGDIR=$T/missing/deeper"
expect_failure "missing directory" "$T/missing/deeper" \
    "cannot create the log directory: No such file or directory"
check_eq 0 "$(count_in "$T" missing)" "missing directory created"

launch 4 status 3 "IOLENS_LOGFILE=$T/nodir/x.iolens"
expect_failure "IOLENS_LOGFILE in a missing directory" "$T/nodir/x.iolens" \
    "No such file or directory"

# Permission denied even for root: sysfs does not take new files.
launch 4 status 3 "IOLENS_LOGFILE=/sys/iolens-test.iolens"
expect_failure "no permission" "/sys/iolens-test.iolens" "Permission denied"

# The log directory is a regular file.
touch "$T/plain-file"
launch 4 status 3 "IOLENS_LOGDIR=$T/plain-file"
expect_failure "log directory is a file" "$T/plain-file/root_job_prog_[^ ]*[.]iolens" \
    "Not a directory"
if [ "$(id -u)" != 0 ]; then
    mkdir "$T/read-only"
    chmod 555 "$T/read-only"
    launch 4 status 3 "IOLENS_LOGDIR=$T/read-only"
    expect_failure "read-only log directory" "$T/read-only/[^ ]*[.]iolens" "Permission denied"
    check_eq 0 "$(count_in "$T/read-only" '*')" "files in the read-only directory"
fi

# A full file system: a 64 KiB tmpfs, and a job whose log needs about
# 150 KiB.  Some rank's write fails; no rank leaves anything behind.
full=$T/full
mkdir "$full"
if mount -t tmpfs -o size=64k iolens-test "$full" 2>/dev/null; then
    trap 'umount "$full" 2>/dev/null; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
    launch 4 files 600 "IOLENS_LOGDIR=$full"
    check_eq 0 "$STATUS" "exit status of the job, full file system"
    check_eq 1 "$(wc -l <"$ERR" | tr -d ' ')" "lines on stderr, full file system"
    line="^iolens: cannot write log $full/root_job_prog_[^ ]*[.]iolens: "
    if grep -Eq "$line""No space left on device( [(]rank [1-3][)])?\$" "$ERR"; then
        pass
    else
        fail "message, full file system: '$(cat "$ERR")'"
    fi
    check_eq 0 "$(count_in "$full" '*')" "files left on the full file system"
    # The same job with room to spare writes its log: the failure was
    # the space, nothing else.
    umount "$full"
    launch 4 files 600 "IOLENS_LOGDIR=$full"
    check_eq 1 "$(logs_in "$full")" "log of the job with space"
    LOG=$(first_in "$full" '*.iolens')
    require_log "$LOG"
    check_gt "$(wc -c <"$LOG")" 65536 "log size (so that it did not fit in 64 KiB)"
else
    echo "(no tmpfs mount here: the full file system case is skipped)"
fi

# A bad IOLENS_* value: every rank reads the same environment, so the job
# gets one line about it (from rank 0), not one per rank, and its log.
launch 4 status 3 IOLENS_MEMORY=lots
check_eq 3 "$STATUS" "exit status of the job, IOLENS_MEMORY=lots"
check_eq "iolens: IOLENS_MEMORY=lots is not a size (e.g. 2M, 512K); using 2M" "$(cat "$ERR")" \
    "stderr of a 4-rank job with IOLENS_MEMORY=lots"
check_eq 1 "$(logs_in "$LOGDIR")" "logs of the job with IOLENS_MEMORY=lots"
finish
