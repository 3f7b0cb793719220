#!/bin/sh
# Thread scaling of the added cost per call (make bench).
#
#   run-threads.sh BUILD_DIR
#
# bench/threads makes 1-byte pwrites from 1, 2 and 4 threads, on separate
# files and on one shared file, RUNS times untraced and RUNS times traced
# (alternating which goes first); the table shows the medians, the added
# nanoseconds per call, and that cost against the one-thread figure of the
# same mode.  Target: at most 2x the one-thread cost (no lock convoy).
# CALLS (default 10^6) is per thread.  A figure, not a test.
set -eu

BUILD=${1:?usage: run-threads.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
BENCH=$BUILD/bench/threads
LIB=$BUILD/.libs/libiolens.so
PARSER=$BUILD/iolens-parser
RUNS=${RUNS:-5}
CALLS=${CALLS:-1000000}
THREADS=${THREADS:-1 2 4}

for f in "$BENCH" "$LIB"; do
    if [ ! -e "$f" ]; then
        echo "run-threads: $f is missing; run 'make bench' in the build directory" >&2
        exit 1
    fi
done
SHM=$(mktemp -d /dev/shm/iolens-threads.XXXXXX)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/iolens-threads-logs.XXXXXX")
trap 'rm -rf "$SHM" "$LOGS"' EXIT INT TERM

median() {
    sort -g | awk '{ v[NR] = $1 }
        END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

run_untraced() { "$BENCH" "$1" "$CALLS" "$SHM" "$2"; }
run_traced() {
    IOLENS_NONMPI=1 IOLENS_INCLUDE=$SHM LD_PRELOAD=$LIB IOLENS_LOGFILE=$3 \
        "$BENCH" "$1" "$CALLS" "$SHM" "$2"
}

echo "iolens thread scaling: 1-byte pwrite, $CALLS calls per thread, median of $RUNS runs"
echo "$(nproc) CPUs; $(uname -r)"
echo
printf '%-9s %7s %12s %12s %10s %13s %14s\n' files threads untraced_ns traced_ns added_ns \
    vs_1_thread writes_in_log
for mode in separate shared; do
    base=""
    for n in $THREADS; do
        : >"$LOGS/u" && : >"$LOGS/t"
        i=1
        while [ "$i" -le "$RUNS" ]; do
            if [ $((i % 2)) -eq 1 ]; then
                run_untraced "$n" "$mode" >>"$LOGS/u"
                run_traced "$n" "$mode" "$LOGS/$mode-$n-$i.iolens" >>"$LOGS/t"
            else
                run_traced "$n" "$mode" "$LOGS/$mode-$n-$i.iolens" >>"$LOGS/t"
                run_untraced "$n" "$mode" >>"$LOGS/u"
            fi
            i=$((i + 1))
        done
        u=$(median <"$LOGS/u")
        t=$(median <"$LOGS/t")
        added=$(awk -v u="$u" -v t="$t" 'BEGIN { printf "%.1f", t - u }')
        [ -n "$base" ] || base=$added
        seen=$("$PARSER" --total "$LOGS/$mode-$n-1.iolens" 2>/dev/null |
            awk '$1 == "total_POSIX_WRITES:" { print $2 }')
        awk -v m="$mode" -v n="$n" -v u="$u" -v t="$t" -v a="$added" -v b="$base" -v s="${seen:-none}" \
            'BEGIN { printf "%-9s %7d %12.1f %12.1f %10.1f %13s %14s\n", m, n, u, t, a,
                     (b > 0 ? sprintf("%.2fx", a / b) : "-"), s }'
    done
done
echo
echo "writes_in_log: POSIX_WRITES in the first traced run's log (threads x calls, warm-up included)."
