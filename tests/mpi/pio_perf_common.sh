# Helpers of test_pio_perf_*.sh; sourced after tests/integration/common.sh
# and job_common.sh.
#
#   pio_setup            skip unless make check gave mpicc and mpiexec; set
#                        PIO (the built iolens-pio-perf) and HAVE_HDF5 (yes/no)
#   pio_run NAME NP ARGS...
#                        run iolens-pio-perf ARGS on NP ranks, untraced;
#                        OUT, ERR, STATUS as for launch (job_common.sh)
#   pio_traced NAME NP ARGS...
#                        the same under LD_PRELOAD of libiolens, log
#                        directory $T/NAME/logs; requires exit status 0,
#                        an empty stderr and one log that parses (LOG)
#   json_field API OP FIELD
#                        FIELD of the --json record of (API, OP) in $OUT

pio_setup() {
    job_setup
    PIO=$IOLENS_BUILDDIR/iolens-pio-perf
    if [ ! -x "$PIO" ]; then
        echo "SKIP: $PIO was not built (configure found no MPI)"
        exit 77
    fi
    HAVE_HDF5=no
    grep -q '^#define IOLENS_HAVE_HDF5 1' "$IOLENS_BUILDDIR/build_config.h" && HAVE_HDF5=yes
}

pio_run() {
    RUN=$T/$1
    np=$2
    shift 2
    mkdir -p "$RUN/data"
    OUT=$RUN/out
    ERR=$RUN/err
    mpi_run -n "$np" "$PIO" --dir "$RUN/data" "$@" >"$OUT" 2>"$ERR"
    STATUS=$?
}

pio_traced() {
    RUN=$T/$1
    np=$2
    shift 2
    LOGDIR=$RUN/logs
    mkdir -p "$RUN/data" "$LOGDIR"
    OUT=$RUN/out
    ERR=$RUN/err
    mpi_run -n "$np" -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$LOGDIR" \
        "$PIO" --dir "$RUN/data" "$@" >"$OUT" 2>"$ERR"
    STATUS=$?
    check_eq 0 "$STATUS" "exit status of iolens-pio-perf $*"
    check_eq "" "$(cat "$ERR")" "stderr of iolens-pio-perf $*"
    check_eq 1 "$(logs_in "$LOGDIR")" "logs of iolens-pio-perf $*"
    LOG=$(first_in "$LOGDIR" '*.iolens')
    require_log "$LOG"
}

json_field() {
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["api"] == sys.argv[2] and r["op"] == sys.argv[3]:
        print(r[sys.argv[4]])' "$OUT" "$1" "$2" "$3"
}
