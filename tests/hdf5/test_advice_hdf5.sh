#!/bin/sh
# iolens-parser --advice on parallel HDF5 at 4 ranks (advice_h5_prog.c):
# the independent transfer gives HDF5_INDEPENDENT with its exact counts
# (4 ranks x 32 H5Dwrite/H5Dread), the collective one does not.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
. "$(dirname "$0")/hdf5_common.sh"
hdf5_setup

# hdf5_setup compiled h5_prog.c the way that works here: the same for ours.
PROG=$T/advice_h5_prog
hdf5_compile "$IOLENS_SRCDIR/tests/hdf5/advice_h5_prog.c" "$PROG" ||
    { fail "compiling advice_h5_prog.c: $(cat "$PROG.cc")"; finish; }

advise() {
    new_run "$1"
    if ! mpi_run -n 4 -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$RUN/logs" \
        "$PROG" "$1" "$DATA" >"$OUT" 2>"$ERR"; then
        fail "advice_h5_prog $1 exited with an error: $(cat "$ERR")"
    fi
    take_log "$1"
    "$IOLENS_PARSER" --advice "$LOG" >"$RUN/advice" 2>"$RUN/advice.err" ||
        fail "iolens-parser --advice ($1): $(cat "$RUN/advice.err")"
}

evidence() {
    awk -v c="$1" '$1 == "FINDING" { f = ($2 == c) } f && /^evidence: / { print; exit }' \
        "$RUN/advice"
}

advise indep
check_eq "evidence: 128 independent and 0 collective H5Dread/H5Dwrite calls (100.0% independent) on 1 datasets shared by ranks; most on $DATA/advice.h5:/d (128 independent, 4 ranks)" \
    "$(evidence HDF5_INDEPENDENT)" "indep evidence"
check_eq "FINDING HDF5_INDEPENDENT 56" "$(grep '^FINDING HDF5_INDEPENDENT' "$RUN/advice")" \
    "indep priority: 55 + 1 (share 1.0 against 0.9)"

advise coll
check_eq "" "$(evidence HDF5_INDEPENDENT)" "coll: no HDF5_INDEPENDENT"

finish
