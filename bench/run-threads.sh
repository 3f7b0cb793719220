#!/bin/sh
# Thread scaling of the added cost per call (make bench).
#
#   run-threads.sh BUILD_DIR
#
# bench/threads makes 1-byte pwrites from 1, 2 and 4 threads, on separate
# files and on one shared file, traced, each batch on a traced file
# followed by one on an untraced twin file in the same process (the
# in-process method of run-overhead.sh: two processes differ by more than
# the effect on a busy machine); a run's figure is the median of those
# paired differences (in_process, the cost of tracing a call).  RUNS
# rounds (default 5), each running every thread count once, in turn
# forwards and backwards; the table shows the medians over the rounds and
# the min..max of in_process.  vs_1_thread is paired too: in each round,
# the cost at N threads over the cost at 1 thread of the same round, then
# the median over the rounds.  A round whose 1-thread cost is not positive,
# or whose N-thread cost is negative, has no such ratio (noise); when half
# the rounds or more have none, the figure is "noise" and the summary
# says "noise, not measured" (summary.sh), never "met".  Target: at most
# 2x the one-thread cost (no lock convoy).  CALLS (default 10^6) is per
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
# Traced scratch files in $SHM/traced, twins in $SHM/twin, which the
# default IOLENS_EXCLUDE (/dev) leaves untraced: under /dev/shm, not
# TMPDIR, so that the figure is the call's cost and not a disk's.
SHM=$(mktemp -d /dev/shm/iolens-threads.XXXXXX)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/iolens-threads-logs.XXXXXX") || { rm -rf "$SHM"; exit 1; }
trap 'rm -rf "$SHM" "$LOGS"' EXIT
trap 'exit 130' INT TERM
mkdir "$SHM/traced" "$SHM/twin"
run_traced() {
    IOLENS_NONMPI=1 IOLENS_INCLUDE=$SHM/traced LD_PRELOAD=$LIB IOLENS_LOGFILE=$3 \
        "$BENCH" "$1" "$CALLS" "$SHM/traced" "$2" "$SHM/twin"
}

# THREADS backwards, for the even rounds.
backwards() {
    reversed=""
    for n in "$@"; do reversed="$n${reversed:+ $reversed}"; done
    echo "$reversed"
}

# Column FIELD of the rounds at N threads (lines "ROUND N TRACED TWIN DIFF").
column_at() {
    awk -v n="$1" -v f="$2" '$2 == n { print $f }' "$LOGS/rounds"
}

# The paired ratio of each round: cost at N threads over cost at 1 thread.
ratios_at() {
    awk -v n="$1" '$2 == 1 { base[$1] = $5 } $2 == n { d[$1] = $5 }
        END { for (r in d) print (base[r] > 0 && d[r] >= 0) ? d[r] / base[r] : "noise" }' \
        "$LOGS/rounds"
}

echo "iolens thread scaling: 1-byte pwrite, $CALLS calls per thread and file, $RUNS rounds"
echo "$(nproc) CPUs; $(uname -r)"
echo
printf '%-9s %7s %10s %9s %11s %-15s %12s %-11s %13s\n' files threads traced_ns twin_ns \
    in_process spread vs_1_thread spread writes_in_log
for mode in separate shared; do
    : >"$LOGS/rounds"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        order=$THREADS
        [ $((i % 2)) -eq 0 ] && order=$(backwards $THREADS)
        for n in $order; do
            out=$(run_traced "$n" "$mode" "$LOGS/$mode-$n-$i.iolens")
            echo "$i $n $out" >>"$LOGS/rounds"
        done
        i=$((i + 1))
    done
    files="separate files"
    [ "$mode" = shared ] && files="one shared file"
    for n in $THREADS; do
        t=$(column_at "$n" 3 | summary_stats %.1f)
        u=$(column_at "$n" 4 | summary_stats %.1f)
        d=$(column_at "$n" 5 | summary_stats %.1f)
        r="- -"
        [ "$n" = 1 ] || r=$(ratios_at "$n" | summary_stats %.2f)
        seen=$("$PARSER" --total "$LOGS/$mode-$n-1.iolens" 2>/dev/null |
            awk '$1 == "total_POSIX_WRITES:" { print $2 }')
        printf '%-9s %7s %10s %9s %11s %-15s %12s %-11s %13s\n' "$mode" "$n" "${t%% *}" \
            "${u%% *}" "${d%% *}" "${d#* }" "${r%% *}" "${r#* }" "${seen:-none}"
        summary_row "threads, $files, $n: ns added (in process)" "${d%% *}" ns - "${d#* }" 0
        if [ "$n" = 2 ]; then
            summary_row "threads, $files: 2 against 1 (paired rounds)" "${r%% *}" ratio "<= 2" \
                "${r#* }" 0
        fi
    done
done
echo
echo "traced_ns, twin_ns, in_process: medians over the rounds (each round's figure the median"
echo "of its paired batches); spread: min..max over the rounds.  vs_1_thread: the median of"
echo "each round's in_process at N threads over its in_process at 1 thread (noise: no base)."
echo "writes_in_log: POSIX_WRITES in the first round's log (threads x calls, warm-up"
echo "included; twin writes are not traced)."
