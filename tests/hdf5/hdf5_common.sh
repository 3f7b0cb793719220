# Helpers of the tests/hdf5 scripts; sourced after
# tests/integration/common.sh and tests/mpi/mpiio_common.sh (check_eq,
# counter, sum_counter, check_gt ...).
#
#   hdf5_setup           skip unless make check gave an MPI compiler and
#                        mpiexec; compile h5_prog.c into $T (hdf5_compile)
#   hdf5_pc              the pkg-config name of the build's MPI's parallel
#                        HDF5: hdf5-mpich or hdf5-openmpi
#   hdf5_compile SRC OUT compile SRC into OUT against that HDF5, the
#                        compiler's output in OUT.cc: with the flavour's
#                        `h5pcc.FLAVOUR -shlib` when present (Debian's h5pcc
#                        links libhdf5.a by default, which cannot be
#                        interposed), else with $IOLENS_MPICC and pkg-config
#   run_serial [VAR=VALUE...]
#   run_one MODE [VAR=VALUE...]
#                        run `h5_prog serial DATA` (or MODE) as a plain process
#                        (IOLENS_NONMPI=1: it never calls MPI_Init) under
#                        LD_PRELOAD; sets DATA, OUT, ERR and LOG (checked to
#                        exist alone and to parse)
#   run_parallel N       run `h5_prog parallel DATA` on N ranks as an MPI job
#   record_id LOG LAYER NAME
#                        the record id of NAME's LAYER record
#   file_rec_id LOG NAME the H5D_FILE_REC_ID of dataset record NAME, as the
#                        unsigned id (the counter holds it as a signed value)

hdf5_setup() {
    iolens_setup
    for var in IOLENS_MPICC IOLENS_MPIEXEC IOLENS_SRCDIR; do
        eval "value=\${$var:-}"
        if [ -z "$value" ]; then
            echo "SKIP: $var is not set (needs mpicc and mpiexec, run through make check)"
            exit 77
        fi
    done
    unset LD_PRELOAD
    H5_PROG=$T/h5_prog
    if ! hdf5_compile "$IOLENS_SRCDIR/tests/hdf5/h5_prog.c" "$H5_PROG"; then
        fail "compiling tests/hdf5/h5_prog.c: $(cat "$H5_PROG.cc")"
        finish
    fi
    runs=0
}

hdf5_pc() {
    echo "hdf5-$(mpi_flavour)"
}

# The compiler is named with its flavour: plain h5pcc is whichever MPI
# the system's alternatives chose.
hdf5_compile() {
    hc_h5pcc=h5pcc.$(mpi_flavour)
    if command -v "$hc_h5pcc" >/dev/null 2>&1; then
        # h5pcc compiles to NAME.o in the current directory before it
        # links: in the output's directory, not the build directory that
        # every HDF5 test shares (two of them once linked each other's
        # half-written h5_prog.o: "file format not recognized").
        (cd "$(dirname "$2")" &&
            "$hc_h5pcc" -shlib -Wall -Wextra -Werror "$1" -o "$2") >"$2.cc" 2>&1
    else
        # shellcheck disable=SC2046  # pkg-config prints separate words
        "$IOLENS_MPICC" -Wall -Wextra -Werror "$1" $(pkg-config --cflags --libs "$(hdf5_pc)") \
            -o "$2" >"$2.cc" 2>&1
    fi
    [ -x "$2" ]
}

# Sets RUN, DATA, OUT, ERR for a new run.
new_run() {
    runs=$((runs + 1))
    RUN=$T/run$runs.$1
    DATA=$RUN/data
    OUT=$RUN/out
    ERR=$RUN/err
    mkdir -p "$DATA" "$RUN/logs"
}

# The one log of the run in LOG, parsed.
take_log() {
    nlogs=0
    LOG=$RUN/logs/none.iolens
    for log in "$RUN"/logs/*.iolens; do
        [ -e "$log" ] || continue
        nlogs=$((nlogs + 1))
        LOG=$log
    done
    check_eq 1 "$nlogs" "logs left by h5_prog $1"
    require_log "$LOG"
}

run_one() {
    mode=$1
    shift
    new_run "$mode"
    if ! env "$@" LD_PRELOAD="$IOLENS_LIB" IOLENS_NONMPI=1 IOLENS_LOGDIR="$RUN/logs" \
        "$H5_PROG" "$mode" "$DATA" >"$OUT" 2>"$ERR"; then
        fail "h5_prog $mode exited with an error: $(cat "$ERR")"
    fi
    take_log "$mode"
}

run_serial() {
    run_one serial "$@"
    check_eq "" "$(cat "$ERR")" "stderr of h5_prog serial"
}

run_parallel() {
    new_run "parallel.$1"
    if ! mpi_run -n "$1" -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$RUN/logs" \
        "$H5_PROG" parallel "$DATA" >"$OUT" 2>"$ERR"; then
        fail "h5_prog parallel on $1 ranks exited with an error: $(cat "$ERR")"
    fi
    take_log "parallel -n $1"
}

record_id() {
    base_of "$1" | awk -F'\t' -v l="$2" -v f="$3" '
        $1 == l && $6 == f { print $3; exit }'
}

file_rec_id() {
    value=$(counter "$1" "$2" H5D_FILE_REC_ID)
    case $value in
        -*) printf '%u' "$value" ;;
        *) printf '%s' "$value" ;;
    esac
}
