#!/bin/sh
# Thread scaling of the added cost per call (make bench).
#
#   run-threads.sh BUILD_DIR
#
# bench/threads makes 1-byte pwrites from 1, 2 and 4 threads, on separate
# files and on one shared file, traced, each batch on a traced file
# followed by one on an untraced twin file in the same process (the
# in-process method of run-overhead.sh: two processes differ by more than
# the effect on a busy machine).  RUNS runs (default 5); the table shows
# the medians of the traced and twin figures and of their paired
# difference (in_process, the cost of tracing a call), and that cost
# against the one-thread figure of the same mode.  Target: at most 2x
# the one-thread cost (no lock convoy).  CALLS (default 10^6) is per
# thread and file.  A figure, not a test.
set -eu
. "$(dirname "$0")/summary.sh"

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

# Traced scratch files in $SHM/traced, twins in $SHM/twin (untraced).
mkdir "$SHM/traced" "$SHM/twin"
run_traced() {
    IOLENS_NONMPI=1 IOLENS_INCLUDE=$SHM/traced LD_PRELOAD=$LIB IOLENS_LOGFILE=$3 \
        "$BENCH" "$1" "$CALLS" "$SHM/traced" "$2" "$SHM/twin"
}

echo "iolens thread scaling: 1-byte pwrite, $CALLS calls per thread and file, median of $RUNS runs"
echo "$(nproc) CPUs; $(uname -r)"
echo
printf '%-9s %7s %11s %9s %11s %12s %14s\n' files threads traced_ns twin_ns in_process \
    vs_1_thread writes_in_log
for mode in separate shared; do
    base=""
    for n in $THREADS; do
        : >"$LOGS/runs"
        i=1
        while [ "$i" -le "$RUNS" ]; do
            run_traced "$n" "$mode" "$LOGS/$mode-$n-$i.iolens" >>"$LOGS/runs"
            i=$((i + 1))
        done
        t=$(awk '{ print $1 }' "$LOGS/runs" | median)
        u=$(awk '{ print $2 }' "$LOGS/runs" | median)
        d=$(awk '{ print $3 }' "$LOGS/runs" | median)
        [ -n "$base" ] || base=$d
        seen=$("$PARSER" --total "$LOGS/$mode-$n-1.iolens" 2>/dev/null |
            awk '$1 == "total_POSIX_WRITES:" { print $2 }')
        awk -v m="$mode" -v n="$n" -v t="$t" -v u="$u" -v d="$d" -v b="$base" -v s="${seen:-none}" \
            'BEGIN { printf "%-9s %7d %11.1f %9.1f %11.1f %12s %14s\n", m, n, t, u, d,
                     (b > 0 ? sprintf("%.2fx", d / b) : "-"), s }'
        files="separate files"
        [ "$mode" = shared ] && files="one shared file"
        summary_row "threads, $files, $n: ns added" "$d" ns -
        if [ "$n" = 2 ]; then
            summary_row "threads, $files: 2 against 1" \
                "$(awk -v d="$d" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? d / b : 0) }')" \
                ratio "<= 2"
        fi
    done
done
echo
echo "writes_in_log: POSIX_WRITES in the first run's log (threads x calls, warm-up included;"
echo "twin writes are not traced)."
