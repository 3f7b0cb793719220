#!/bin/sh
# Measures the time iolens adds to each intercepted call (make bench).
#
#   run-overhead.sh BUILD_DIR
#
# Each op of bench/overhead runs RUNS times untraced and RUNS times traced,
# alternating (and swapping which goes first) so that drift in machine
# speed hits both alike; the table shows the median of the runs, each run
# itself the median of 9 batches.  Many short runs beat a few long ones
# here: most of the noise is from one process to the next.
#
# The traced runs also time a twin file that iolens does not trace, in the
# same process, batch for batch (overhead's TWIN_DIR mode): the median of
# those paired differences is the in_process column, the cost of tracing a
# call over passing it through.  It is much steadier than the difference
# of two processes on a busy machine.  It is shown for the read and write
# ops only: an open or stat of an untraced path still pays for resolving
# the path, so there the twin is no baseline.
# A figure, not a test: nothing here passes or fails.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=${1:?usage: run-overhead.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
BENCH=$BUILD/bench/overhead
LIB=$BUILD/.libs/libiolens.so
PARSER=$BUILD/iolens-parser
RUNS=${RUNS:-11}

for f in "$BENCH" "$LIB"; do
    if [ ! -e "$f" ]; then
        echo "run-overhead: $f is missing; run 'make bench' in the build directory" >&2
        exit 1
    fi
done
if [ ! -d /dev/shm ] || [ ! -w /dev/shm ]; then
    echo "run-overhead: /dev/shm is not a writable directory" >&2
    exit 1
fi

# Traced scratch files go to $SHM/traced, the twins to $SHM/twin, which
# the default IOLENS_EXCLUDE (/dev) leaves untraced.
SHM=$(mktemp -d /dev/shm/iolens-bench.XXXXXX)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/iolens-bench-logs.XXXXXX")
trap 'rm -rf "$SHM" "$LOGS"' EXIT INT TERM
mkdir "$SHM/traced" "$SHM/twin"

# Calls per run: enough for a stable median, a fraction of a second each.
iterations() {
    case $1 in
        fwrite16 | fprintf1) echo 1800000 ;;
        openclose) echo 180000 ;;
        *) echo 360000 ;;
    esac
}

# The counter that counts the op's calls, to show they were really traced.
counter_of() {
    case $1 in
        pwrite1 | pwrite4k) echo total_POSIX_WRITES ;;
        openclose) echo total_POSIX_OPENS ;;
        stat) echo total_POSIX_STATS ;;
        fwrite16 | fprintf1) echo total_STDIO_WRITES ;;
    esac
}

median() {
    sort -g | awk '{ v[NR] = $1 }
        END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Half the iterations: the traced runs split theirs between the traced
# file and the twin, so that batches are the same size in both.
run_untraced() {
    "$BENCH" "$1" $(($2 / 2)) "$SHM/traced"
}

run_traced() {
    IOLENS_NONMPI=1 IOLENS_INCLUDE=$SHM/traced LD_PRELOAD=$LIB IOLENS_LOGFILE=$3 \
        "$BENCH" "$1" "$2" "$SHM/traced" "$SHM/twin"
}

echo "iolens call overhead: median of $RUNS runs, each the median of 9 batches"
echo "scratch files in $SHM; $(nproc) CPUs; $(uname -r)"
echo
printf '%-10s %12s %12s %10s %7s %11s %14s\n' op untraced_ns traced_ns added_ns ratio in_process \
    calls_in_log
for op in pwrite1 pwrite4k fwrite16 fprintf1 openclose stat; do
    n=$(iterations "$op")
    : >"$LOGS/untraced" && : >"$LOGS/traced" && : >"$LOGS/paired"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        if [ $((i % 2)) -eq 1 ]; then
            run_untraced "$op" "$n" >>"$LOGS/untraced"
            run_traced "$op" "$n" "$LOGS/$op-$i.iolens" >"$LOGS/one"
        else
            run_traced "$op" "$n" "$LOGS/$op-$i.iolens" >"$LOGS/one"
            run_untraced "$op" "$n" >>"$LOGS/untraced"
        fi
        awk '{ print $1 }' "$LOGS/one" >>"$LOGS/traced"
        awk '{ print $3 }' "$LOGS/one" >>"$LOGS/paired"
        i=$((i + 1))
    done
    plain=$(median <"$LOGS/untraced")
    traced=$(median <"$LOGS/traced")
    paired=$(median <"$LOGS/paired")
    case $op in openclose | stat) paired=- ;; esac
    seen="-"
    if [ -x "$PARSER" ] && [ -f "$LOGS/$op-1.iolens" ]; then
        seen=$("$PARSER" --total "$LOGS/$op-1.iolens" 2>/dev/null |
            awk -v c="$(counter_of "$op"):" '$1 == c { print $2 }')
    elif [ ! -f "$LOGS/$op-1.iolens" ]; then
        seen="no log!"
    fi
    awk -v op="$op" -v p="$plain" -v t="$traced" -v d="$paired" -v s="${seen:--}" 'BEGIN {
        printf "%-10s %12.1f %12.1f %10.1f %7.3f %11s %14s\n", op, p, t, t - p, (p > 0 ? t / p : 0),
            (d == "-" ? d : sprintf("%.1f", d)), s }'
    added=$(awk -v p="$plain" -v t="$traced" 'BEGIN { printf "%.1f", t - p }')
    case $op in
    openclose) summary_row "open+close: ns added" "$added" ns "<= 500" ;;
    stat) summary_row "stat: ns added" "$added" ns - ;;
    *) summary_row "$op: ns added (in process)" "$paired" ns "<= 40" ;;
    esac
    if [ "$op" = pwrite4k ]; then
        summary_row "pwrite4k: traced/untraced" \
            "$(awk -v p="$plain" -v t="$traced" 'BEGIN { printf "%.3f", (p > 0 ? t / p : 0) }')" \
            ratio "<= 1.05"
    fi
done
echo
echo "Targets: at most 40 ns added per read or write call (pwrite1, pwrite4k, fwrite16,"
echo "fprintf1), at most 500 ns per open+close, a ratio of at most 1.05 for pwrite4k."
echo "in_process: traced minus untraced twin file in the same process (read/write ops)."
echo "calls_in_log: the op's counter in the first traced run's log (warm-up included)."
