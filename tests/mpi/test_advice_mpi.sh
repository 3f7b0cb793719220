#!/bin/sh
# iolens-parser --advice on 4-rank jobs of advice_prog.c: a rank-0
# bottleneck, a straggler rank, and a shared file written with independent
# MPI-IO each give their finding with exact evidence figures where the
# figures are exact (bytes, counts, ranks); the collective variant of the
# shared file does not get NO_COLLECTIVE_MPIIO.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup

JOB_PROG=$T/advice_prog
if ! "$IOLENS_MPICC" -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/mpi/advice_prog.c" \
    -o "$JOB_PROG"; then
    fail "compiling tests/mpi/advice_prog.c with $IOLENS_MPICC"
    finish
fi

# advise MODE [PARSER OPTION...]
advise() {
    run_job 4 "$1"
    shift
    if ! "$IOLENS_PARSER" --advice "$@" "$LOG" >"$RUN/advice" 2>"$RUN/advice.err"; then
        fail "iolens-parser --advice $1: $(cat "$RUN/advice.err")"
        finish
    fi
}

codes() {
    awk '$1 == "FINDING" { printf "%s%s", sep, $2; sep = " " } END { print "" }' "$RUN/advice"
}

evidence() {
    awk -v c="$1" '$1 == "FINDING" { f = ($2 == c) } f && /^evidence: / { print; exit }' \
        "$RUN/advice"
}

has_code() {
    case " $(codes) " in *" $1 "*) pass ;; *) fail "$2: $1 not in '$(codes)'" ;; esac
}

lacks_code() {
    case " $(codes) " in *" $1 "*) fail "$2: unexpected $1" ;; *) pass ;; esac
}

advise rank0
check_eq "RANK0_BOTTLENECK" "$(codes)" "rank0: the only finding"
check_eq "evidence: rank 0 moved 100.0% of the 8388608 bytes at the POSIX layer; the job has 4 ranks" \
    "$(evidence RANK0_BOTTLENECK)" "rank0 evidence"
check_eq "FINDING RANK0_BOTTLENECK 91" "$(grep '^FINDING' "$RUN/advice")" \
    "rank0 priority: 90 + 1 (share 1.0 against 0.9)"

# The straggler's 32 fsync'd MiB take 30 to 40 ms on a fast disk when the
# idle ranks yield the CPU (Open MPI), under the 50 ms the rule asks of the
# slowest rank by default, so that a tiny job is never flagged (that floor
# is held by tests/integration/test_advice_log.sh).  The floor is set to
# 5 ms here, well under the straggler's time on any disk, so that what is
# checked is the rule's ratio on real timings.
advise straggler --advice-thresholds imbalance_min_time=0.005
has_code RANK_IMBALANCE "straggler"
lacks_code RANK0_BOTTLENECK "straggler (rank 3 moved 57% of the bytes)"
evidence RANK_IMBALANCE | grep -q '^evidence: slowest rank 3 spent [0-9.]* s in POSIX I/O, fastest rank [012] [0-9.]* s ([0-9.]* times) on the files of their own$' ||
    fail "straggler evidence: $(evidence RANK_IMBALANCE)"

advise indep
has_code NO_COLLECTIVE_MPIIO "indep"
check_eq "evidence: 256 independent and 0 collective MPI-IO reads and writes (100.0% independent) on 1 shared files; most on $DATA/shared.dat (256 independent, 4 ranks)" \
    "$(evidence NO_COLLECTIVE_MPIIO)" "indep evidence"

advise coll
lacks_code NO_COLLECTIVE_MPIIO "coll"
lacks_code RANK_IMBALANCE "coll"

finish
