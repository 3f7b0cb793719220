#!/bin/sh
# iolens-parser --advice on parallel HDF5 at 4 ranks (advice_h5_prog.c):
# the independent transfer gives HDF5_INDEPENDENT with its exact counts
# (4 ranks x 32 H5Dwrite/H5Dread), the collective one does not.  Then
# HDF5_AMPLIFICATION on h5perf_serial's runs (below).
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

# HDF5_AMPLIFICATION on HDF5's own benchmark, h5perf_serial (hdf5-tools):
# a 1000 x 1000 one-byte dataset written and read twice in 100 x 100
# blocks.  Stored contiguous, HDF5 moves every block's rows through its
# sieve buffer, some 14 times the data (the figures are the log's own
# POSIX counters; the H5D ones are the benchmark's 2 x 10^6 bytes each
# way).  Stored in chunks of the blocks' shape, as the fix says, it moves
# about the data: no finding.
# perf NAME H5PERF_OPTIONS...: runs h5perf_serial traced in $T/NAME; its
# log in LOG, the advice in $RUN/advice.
perf() {
    RUN=$T/$1
    shift
    mkdir -p "$RUN/logs"
    if ! HDF5_PREFIX=$RUN IOLENS_NONMPI=1 IOLENS_LOGDIR="$RUN/logs" LD_PRELOAD="$IOLENS_LIB" \
        h5perf_serial -A hdf5 -x 100,100 "$@" >"$RUN/out" 2>&1; then
        fail "h5perf_serial $*: $(tail -n 3 "$RUN/out")"
    fi
    set -- "$RUN"/logs/*h5perf_serial*.iolens
    check_eq 1 "$#" "logs of h5perf_serial ($RUN)"
    LOG=$1
    "$IOLENS_PARSER" --advice "$LOG" >"$RUN/advice" 2>"$RUN/advice.err" ||
        fail "iolens-parser --advice ($RUN): $(cat "$RUN/advice.err")"
}
posix_bytes() {
    "$IOLENS_PARSER" --base "$LOG" | awk -F'\t' -v c="$1" -v f="$RUN/#sio_tmp.h5" \
        '$1 == "POSIX" && $4 == c && $6 == f { s += $5 } END { print s + 0 }'
}
if command -v h5perf_serial >/dev/null 2>&1; then
    perf contiguous -e 1000,1000 -i 2
    F=$RUN/#sio_tmp.h5
    read_moved=$(posix_bytes POSIX_BYTES_READ)
    written_moved=$(posix_bytes POSIX_BYTES_WRITTEN)
    factor=$(awk -v m=$((read_moved + written_moved)) 'BEGIN { printf "%.2f", m / 4000000 }')
    check_gt "$factor" 5 "contiguous: POSIX bytes over H5D bytes"
    check_eq "FINDING HDF5_AMPLIFICATION 71" "$(grep '^FINDING HDF5_AMPLIFICATION' "$RUN/advice")" \
        "contiguous: priority 62 + 9 (the factor is over twice the threshold of 2)"
    check_eq "evidence: $((read_moved + written_moved)) bytes moved at POSIX for 4000000 bytes of HDF5 dataset reads and writes ($factor times), in 1 files; most in $F (read $read_moved for 2000000, written $written_moved for 2000000); its busiest dataset $F:/Dataset_1000000 is contiguous, 1000 x 1000, mostly accessed 100 x 100" \
        "$(evidence HDF5_AMPLIFICATION | sed 's/; most from .*//')" "contiguous: evidence"
    check_eq "fix: the accesses cut across the rows of a contiguous dataset, which HDF5 reads (and for a write writes back) in whole stretches through its sieve buffer: store the dataset in chunks shaped like the accesses (H5Pset_chunk), or read and write whole rows" \
        "$(awk '$1 == "FINDING" { f = ($2 == "HDF5_AMPLIFICATION") } f && /^fix: / { print; exit }' "$RUN/advice")" \
        "contiguous: fix"
    "$IOLENS_PARSER" --advice --advice-thresholds hdf5_amplification=100 "$LOG" >"$RUN/a100"
    check_eq "" "$(grep '^FINDING HDF5_AMPLIFICATION' "$RUN/a100")" "hdf5_amplification=100"

    perf chunked -e 1000,1000 -c 100,100 -i 2
    check_eq "" "$(evidence HDF5_AMPLIFICATION)" "chunked like the accesses: no HDF5_AMPLIFICATION"

    # Chunks of 2 MB, over HDF5's 1 MiB chunk cache: each 100 x 100 write
    # rewrites part of a chunk (about 2 times the data at POSIX in all,
    # under the default threshold; shown with a threshold of 1.2).
    perf big_chunks -e 2000,2000 -c 2000,1000 -i 1
    check_eq "" "$(evidence HDF5_AMPLIFICATION)" "chunks over the cache: under the default 2"
    "$IOLENS_PARSER" --advice --advice-thresholds hdf5_amplification=1.2 "$LOG" >"$RUN/advice"
    check_eq "is chunked, 2000 x 2000 in chunks of 2000 x 1000, mostly accessed 100 x 100" \
        "$(evidence HDF5_AMPLIFICATION | sed 's/.*:\/Dataset_4000000 //; s/; most from .*//')" \
        "chunks over the cache: the dataset"
    check_eq "fix: each access takes part of a chunk, which HDF5 reads (and for a write writes back) whole: make the chunks the accesses' shape (H5Pset_chunk), or enlarge the chunk cache (H5Pset_chunk_cache) so that chunks stay in memory between accesses" \
        "$(awk '$1 == "FINDING" { f = ($2 == "HDF5_AMPLIFICATION") } f && /^fix: / { print; exit }' "$RUN/advice")" \
        "chunks over the cache: fix"
else
    fail "h5perf_serial (hdf5-tools) is not installed"
fi

finish
