#!/bin/sh
# Instructions iolens adds to each intercepted read or write call, counted
# by valgrind's callgrind (part of make bench).
#
#   run-instructions.sh BUILD_DIR
#
# Timings on a shared 2-CPU machine move by tens of nanoseconds from run to
# run (run-overhead.sh); instruction counts do not: the same binary and
# inputs give the same count whatever else the machine is doing.  Each op
# of bench/overhead runs N and 2N calls, untraced and traced; the
# difference of the two counts divided by N is the cost of one call
# without start-up and shutdown, and traced minus untraced is what iolens
# adds.  An instruction is not a nanosecond (the pwrite system call itself
# is not counted at all), so use this to compare two builds, and
# run-overhead.sh for the time.  A figure, not a test.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=${1:?usage: run-instructions.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
BENCH=$BUILD/bench/overhead
LIB=$BUILD/.libs/libiolens.so
N=${CALLS:-50000}
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

# instructions OP CALLS [traced]: the total count of one run
instructions() {
    out=$SHM/cg.out
    rm -f "$SHM/traced"/* "$out"
    if [ "${3:-}" = traced ] || [ "${3:-}" = traced_nosites ]; then
        sites_off=0
        [ "$3" = traced_nosites ] && sites_off=1
        IOLENS_DISABLE_SITES=$sites_off IOLENS_NONMPI=1 IOLENS_INCLUDE=$SHM/traced LD_PRELOAD=$LIB IOLENS_LOGFILE=$SHM/log \
            valgrind --tool=callgrind --callgrind-out-file="$out" "$BENCH" "$1" "$2" "$SHM/traced" \
            >/dev/null 2>&1
    else
        valgrind --tool=callgrind --callgrind-out-file="$out" "$BENCH" "$1" "$2" "$SHM/traced" \
            >/dev/null 2>&1
    fi
    rm -f "$SHM/log"
    awk '/^summary:/ { print $2 }' "$out"
}

per_call() {
    one=$(instructions "$1" "$N" ${2:-})
    two=$(instructions "$1" $((2 * N)) ${2:-})
    echo $(((two - one) / N))
}

echo "instructions per call (callgrind, $N and $((2 * N)) calls)"
# "no sites": traced with IOLENS_DISABLE_SITES=1, what the call sites cost.
printf '%-10s %10s %10s %10s %10s\n' op untraced traced added 'no sites'
for op in pwrite1 pwrite4k fwrite16 fprintf1; do
    u=$(per_call "$op")
    t=$(per_call "$op" traced)
    o=$(per_call "$op" traced_nosites)
    printf '%-10s %10d %10d %10d %10d\n' "$op" "$u" "$t" $((t - u)) $((o - u))
    summary_row "$op: instructions added" $((t - u)) instructions -
    summary_row "$op: instructions added, IOLENS_DISABLE_SITES=1" $((o - u)) instructions -
done
