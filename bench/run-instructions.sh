#!/bin/sh
# Instructions iolens adds to each intercepted read or write call, counted
# by valgrind's callgrind (part of make bench).
#
#   run-instructions.sh BUILD_DIR
#
# Timings on a shared 2-CPU machine move by tens of nanoseconds from run to
# run (run-overhead.sh); instruction counts hardly do: the same binary and
# inputs give nearly the same count whatever else the machine is doing.
# Each op of bench/overhead runs about N calls, untraced, traced, and
# traced with IOLENS_DISABLE_SITES=1 (what the call sites cost).  Only the
# instructions run inside the benchmark's call loop (its run_OP function
# and all it calls) are counted (callgrind --toggle-collect): start-up and
# the log written at exit are left out, the interval store's compactions,
# made during the calls, are in.  The count over the calls made is the
# cost of one call (the same N for every column, so that the compactions
# weigh alike), and traced minus untraced is what iolens adds.  Whether
# an access merges into the interval store's latest entry depends on the
# time between accesses, so traced runs differ by a few instructions a
# call: each figure is the median of REPEATS runs (3).  (Before
# 2026-11-26 the figure was the difference of an N and a 2N run over N,
# which counted the log written at exit, whose size depends on where the
# interval store stood then, moved by tens from run to run, and was 11 %
# high: a run makes N / 9 * 10 calls.)  An instruction is not a nanosecond (the pwrite
# system call itself is not counted at all), so use this to compare two
# builds, and run-overhead.sh for the time.  A figure, not a test.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=${1:?usage: run-instructions.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
BENCH=$BUILD/bench/overhead
LIB=$BUILD/.libs/libiolens.so
N=${CALLS:-50000}
REPEATS=${REPEATS:-3}
for f in "$BENCH" "$LIB"; do
    if [ ! -e "$f" ]; then
        echo "run-instructions: $f is missing; run 'make bench' in the build directory" >&2
        exit 1
    fi
done
if ! command -v valgrind >/dev/null 2>&1; then
    echo "run-instructions: skipped: valgrind (Debian package valgrind) is not installed"
    exit 0
fi
# Under /dev/shm, as in run-overhead.sh: the same calls as the timed ones.
SHM=$(mktemp -d /dev/shm/iolens-instr.XXXXXX)
trap 'rm -rf "$SHM"' EXIT
trap 'exit 130' INT TERM
mkdir "$SHM/traced"

# The calls bench/overhead OP ITERATIONS makes in its loops: a warm-up
# batch and BATCHES timed ones of ITERATIONS / BATCHES calls each
# (BATCHES as in bench/overhead.c).
BATCHES=9
calls_made() {
    echo $((($1 / BATCHES) * (BATCHES + 1)))
}

# instructions OP ITERATIONS [untraced|traced|traced_nosites]: the count
# of one run inside the op's call loop (bench/overhead.c's run_OP).
instructions() {
    out=$SHM/cg.out
    rm -f "$SHM/traced"/* "$out"
    cg="valgrind --tool=callgrind --toggle-collect=run_$1 --callgrind-out-file=$out"
    case ${3:-untraced} in
    untraced)
        $cg "$BENCH" "$1" "$2" "$SHM/traced" >/dev/null 2>&1 ;;
    traced | traced_nosites)
        sites_off=0
        [ "$3" = traced_nosites ] && sites_off=1
        IOLENS_DISABLE_SITES=$sites_off IOLENS_NONMPI=1 IOLENS_INCLUDE=$SHM/traced \
            LD_PRELOAD=$LIB IOLENS_LOGFILE=$SHM/log \
            $cg "$BENCH" "$1" "$2" "$SHM/traced" >/dev/null 2>&1 ;;
    esac
    rm -f "$SHM/log"
    awk '/^summary:/ { print $2 }' "$out"
}

# per_call OP MODE: instructions per call, one decimal, the median of
# REPEATS runs.
per_call() {
    r=1
    while [ "$r" -le "$REPEATS" ]; do
        awk -v total="$(instructions "$1" "$N" "$2")" -v calls="$(calls_made "$N")" \
            'BEGIN { printf "%.1f\n", total / calls }'
        r=$((r + 1))
    done | summary_stats %.1f | awk '{ print $1 }'
}

echo "instructions per call (callgrind, inside the call loop, $(calls_made "$N") calls," \
    "median of $REPEATS runs)"
# "no sites": traced with IOLENS_DISABLE_SITES=1; "sites add": traced
# minus that, what the call sites cost.
printf '%-10s %10s %10s %10s %10s %10s\n' op untraced traced added 'no sites' 'sites add'
for op in pwrite1 pwrite4k fwrite16 fprintf1; do
    u=$(per_call "$op" untraced)
    t=$(per_call "$op" traced)
    o=$(per_call "$op" traced_nosites)
    set -- $(awk -v u="$u" -v t="$t" -v o="$o" \
        'BEGIN { printf "%.1f %.1f %.1f\n", t - u, o - u, t - o }')
    printf '%-10s %10s %10s %10s %10s %10s\n' "$op" "$u" "$t" "$1" "$2" "$3"
    summary_row "$op: instructions added" "$1" instructions -
    summary_row "$op: instructions added, IOLENS_DISABLE_SITES=1" "$2" instructions -
    summary_row "$op: instructions call sites add (on - off)" "$3" instructions -
done
echo
echo "added: traced minus untraced; no sites: the same with IOLENS_DISABLE_SITES=1;"
echo "sites add: traced minus no sites.  Counted in the call loop only (not start-up"
echo "or the log written at exit), over the calls made.  CALLS=N sets N ($N), REPEATS"
echo "the runs a figure is the median of ($REPEATS)."
