# Helpers of the test_mpiio_*.sh scripts; sourced after
# tests/integration/common.sh (check_eq, counter, total, ...).
#
#   mpiio_setup             skip unless make check gave an MPI compiler and
#                           mpiexec; compile mpiio_prog.c into $T
#   run_mpiio N MODE [VAR=VALUE...]
#                           run `mpiio_prog MODE DATA` on N ranks under
#                           LD_PRELOAD, as an MPI job (no IOLENS_NONMPI),
#                           with the extra environment (values without
#                           blanks) and fresh directories: sets DATA (the files),
#                           OUT (the program's stdout) and LOG (the job's
#                           one log, checked to exist alone and to parse)
#   sum_counter LOG FILE COUNTER
#                           COUNTER summed over FILE's records (one reduced
#                           record or one per rank: the same sum)
#   check_at_least MIN VALUE WHAT
#   mpi_header_version      MPI_VERSION of $IOLENS_MPICC's mpi.h (0 if unknown)

mpiio_setup() {
    iolens_setup
    for var in IOLENS_MPICC IOLENS_MPIEXEC IOLENS_SRCDIR; do
        eval "value=\${$var:-}"
        if [ -z "$value" ]; then
            echo "SKIP: $var is not set (needs mpicc and mpiexec, run through make check)"
            exit 77
        fi
    done
    unset LD_PRELOAD
    MPIIO_PROG=$T/mpiio_prog
    if ! "$IOLENS_MPICC" -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/mpi/mpiio_prog.c" \
        -o "$MPIIO_PROG"; then
        fail "compiling tests/mpi/mpiio_prog.c with $IOLENS_MPICC"
        finish
    fi
    runs=0
}

run_mpiio() {
    nranks=$1
    mode=$2
    shift 2
    runs=$((runs + 1))
    RUN=$T/run$runs.$mode.$nranks
    DATA=$RUN/data
    OUT=$RUN/out
    mkdir -p "$DATA" "$RUN/logs"
    envs=
    for assignment in "$@"; do
        envs="$envs -genv ${assignment%%=*} ${assignment#*=}"
    done
    # shellcheck disable=SC2086  # envs: -genv pairs, values without blanks
    if ! mpi_run -n "$nranks" -genv LD_PRELOAD "$IOLENS_LIB" \
        -genv IOLENS_LOGDIR "$RUN/logs" $envs "$MPIIO_PROG" "$mode" "$DATA" >"$OUT"; then
        fail "mpiio_prog $mode on $nranks ranks exited with an error"
    fi
    nlogs=0
    LOG=$RUN/logs/none.iolens
    for log in "$RUN"/logs/*.iolens; do
        [ -e "$log" ] || continue
        nlogs=$((nlogs + 1))
        LOG=$log
    done
    check_eq 1 "$nlogs" "logs left by mpiio_prog $mode -n $nranks"
    require_log "$LOG"
}

sum_counter() {
    base_of "$1" | awk -F'\t' -v f="$2" -v c="$3" '
        $1 !~ /^#/ && $6 == f && $4 == c { s += $5; n++ }
        END { if (n == 0) print "<none>"; else print s }'
}

check_at_least() {
    check_le "$1" "$2" "$3 (at least $1)"
}

mpi_header_version() {
    mhv=$(printf '#include <mpi.h>\nMPI_VERSION\n' | "$IOLENS_MPICC" -E -P -x c - 2>/dev/null | tail -n 1)
    case $mhv in
        '' | *[!0-9]*) echo 0 ;;
        *) echo "$mhv" ;;
    esac
}
