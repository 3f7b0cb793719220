# Helpers of the test_job_*.sh scripts; sourced after
# tests/integration/common.sh (check_eq, counter, total, require_log ...).
#
#   job_setup            skip unless make check gave an MPI compiler and
#                        mpiexec; compile job_prog.c (with mpicc) and
#                        log_dump.c (against the build tree's reader) into $T
#   launch N MODE [ARG] [VAR=VALUE...]
#                        run `job_prog MODE DATA [ARG]` on N ranks under
#                        LD_PRELOAD as an MPI job (no IOLENS_NONMPI), the log
#                        directory $LOGDIR, with the extra environment
#                        (values without blanks); sets RUN, DATA, LOGDIR,
#                        OUT, ERR (the job's stdout and stderr, without the
#                        launcher's own notices) and STATUS
#   run_job N MODE [ARG] [VAR=VALUE...]
#                        launch, then require exit status 0, exactly one log
#                        in $LOGDIR (set LOG) that parses, and nothing on
#                        stderr; DUMP gets log_dump's output
#   logs_in DIR          number of *.iolens files in DIR
#   count_in DIR NAME    number of entries of DIR whose name matches the
#                        find -name pattern NAME (hidden ones included)
#   first_in DIR NAME    the first such entry, or DIR/none
#   dumped LAYER FILE COUNTER
#                        the value(s) of COUNTER in FILE's LAYER records,
#                        full precision, as "rank value" lines
#   dumped_job FIELD, dumped_str INDEX
#                        a job record field / job string (NULs as '|')
#   region_count LOG     the region count in LOG's file header

job_setup() {
    iolens_setup
    for var in IOLENS_MPICC IOLENS_MPIEXEC IOLENS_SRCDIR IOLENS_BUILDDIR; do
        eval "value=\${$var:-}"
        if [ -z "$value" ]; then
            echo "SKIP: $var is not set (needs mpicc and mpiexec, run through make check)"
            exit 77
        fi
    done
    unset LD_PRELOAD
    JOB_PROG=$T/job_prog
    LOG_DUMP=$T/log_dump
    if ! "$IOLENS_MPICC" -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/mpi/job_prog.c" \
        -o "$JOB_PROG"; then
        fail "compiling tests/mpi/job_prog.c with $IOLENS_MPICC"
        finish
    fi
    # A plain C program; mpicc is simply the C compiler at hand.  The
    # reader archive needs zlib, and bzip2 for Darshan logs.
    if ! "$IOLENS_MPICC" -Wall -Wextra -Werror -I"$IOLENS_SRCDIR/include" \
        -I"$IOLENS_SRCDIR" -I"$IOLENS_SRCDIR/util" "$IOLENS_SRCDIR/tests/mpi/log_dump.c" \
        "$IOLENS_BUILDDIR/.libs/libiolens-reader.a" -lz -lbz2 -o "$LOG_DUMP"; then
        fail "compiling tests/mpi/log_dump.c"
        finish
    fi
    runs=0
}

launch() {
    nranks=$1
    mode=$2
    shift 2
    arg=
    case ${1:-} in
        *=*) ;;
        ?*) arg=$1; shift ;;
    esac
    runs=$((runs + 1))
    RUN=$T/run$runs.$mode.$nranks
    DATA=$RUN/data
    LOGDIR=$RUN/logs
    OUT=$RUN/out
    ERR=$RUN/err
    mkdir -p "$DATA" "$LOGDIR"
    envs=
    for assignment in "$@"; do
        envs="$envs -genv ${assignment%%=*} ${assignment#*=}"
    done
    # shellcheck disable=SC2086  # envs: -genv pairs; arg: empty or one word
    mpi_run -n "$nranks" -genv LD_PRELOAD "$IOLENS_LIB" \
        -genv IOLENS_LOGDIR "$LOGDIR" $envs "$JOB_PROG" "$mode" "$DATA" $arg >"$OUT" 2>"$ERR"
    STATUS=$?
    mpi_strip_banners "$ERR"
}

count_in() {
    find "$1" -mindepth 1 -maxdepth 1 -name "$2" | wc -l | tr -d ' '
}

first_in() {
    first=$(find "$1" -mindepth 1 -maxdepth 1 -name "$2" | sort | head -n 1)
    echo "${first:-$1/none}"
}

logs_in() {
    count_in "$1" '*.iolens'
}

run_job() {
    launch "$@"
    check_eq 0 "$STATUS" "exit status of job_prog $mode on $nranks ranks"
    check_eq "" "$(cat "$ERR")" "stderr of job_prog $mode on $nranks ranks"
    check_eq 1 "$(logs_in "$LOGDIR")" "logs left by job_prog $mode on $nranks ranks"
    LOG=$(first_in "$LOGDIR" '*.iolens')
    require_log "$LOG"
    DUMP=$RUN/dump
    if ! "$LOG_DUMP" "$LOG" >"$DUMP"; then
        fail "log_dump $LOG"
        finish
    fi
}

dumped() {
    awk -F'\t' -v l="$1" -v f="$2" -v c="$3" '
        $1 == "rec" && $2 == l && $4 == f && $5 == c { print $3, $6; n++ }
        END { if (n == 0) print "<none>" }' "$DUMP"
}

dumped_job() {
    awk -F'\t' -v k="$1" '$1 == "job" && $2 == k { print $3 }' "$DUMP"
}

dumped_str() {
    awk -F'\t' -v k="$1" '$1 == "str" && $2 == k { print $3 }' "$DUMP"
}

region_count() {
    od -An -t u4 -j 28 -N 4 "$1" | tr -d ' '
}
