#!/bin/sh
# Memory of the runtime (make bench): the peak resident memory of a
# program traced against the same program untraced, and the runtime's own
# accounting (the log's "memory used") against IOLENS_MEMORY, on two
# workloads of tests/integration/prog_stress:
#   files  NFILES distinct files, each created, written 1 byte and closed;
#   ops    NOPS 1-byte writes to one file, each its own access interval.
#
#   run-memory.sh BUILD_DIR
#
# NFILES (default 100000), NOPS (default 10000000), MEMORY (the budget,
# default 2M, the runtime's default), RUNS (default 5; the median is
# printed).  The full sizes, NFILES=1000000 NOPS=100000000, take
# some minutes.  The files go to a scratch directory under TMPDIR (/tmp).
# A figure, not a test.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=$(cd "${1:?usage: run-memory.sh BUILD_DIR}" && pwd)
LIB=$BUILD/.libs/libiolens.so
PARSER=$BUILD/iolens-parser
PROG=$BUILD/tests/integration/prog_stress
NFILES=${NFILES:-100000}
NOPS=${NOPS:-10000000}
MEMORY=${MEMORY:-2M}
RUNS=${RUNS:-5}
(cd "$BUILD" && make tests/integration/prog_stress >/dev/null)
for f in "$LIB" "$PARSER" "$PROG" /usr/bin/time; do
    if [ ! -x "$f" ] && [ ! -f "$f" ]; then
        echo "run-memory: $f is missing (build the project; /usr/bin/time is Debian's time)" >&2
        exit 1
    fi
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/iolens-memory-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

median() {
    sort -g | awk '{ v[NR] = $1 }
        END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Peak RSS in KiB of one run of prog_stress NFILES NOPS; traced when $1 is
# a log path.
peak_kib() {
    rm -rf "$WORK/d" && mkdir "$WORK/d"
    if [ -n "$1" ]; then
        # time runs untraced (else its own log would replace the program's):
        # env execs the program, which is then the traced process.
        /usr/bin/time -f %M -o "$WORK/rss" env IOLENS_NONMPI=1 IOLENS_LOGFILE="$1" \
            IOLENS_MEMORY="$MEMORY" LD_PRELOAD="$LIB" "$PROG" "$WORK/d" "$2" "$3" >/dev/null
    else
        /usr/bin/time -f %M -o "$WORK/rss" "$PROG" "$WORK/d" "$2" "$3" >/dev/null
    fi
    tail -n 1 "$WORK/rss"
}

header() {
    "$PARSER" --base "$1" | awk -v k="# $2:" 'index($0, k) == 1 { print substr($0, length(k) + 2) }'
}

# One line: LABEL NFILES NOPS.
measure() {
    : >"$WORK/plain" && : >"$WORK/traced"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        peak_kib "" "$2" "$3" >>"$WORK/plain"
        rm -f "$WORK/log"
        peak_kib "$WORK/log" "$2" "$3" >>"$WORK/traced"
        i=$((i + 1))
    done
    plain=$(median <"$WORK/plain")
    traced=$(median <"$WORK/traced")
    budget=$(header "$WORK/log" "memory budget")
    used=$(header "$WORK/log" "memory used")
    awk -v l="$1" -v f="$2" -v o="$3" -v p="$plain" -v t="$traced" -v b="$budget" -v u="$used" \
        'BEGIN { printf "%-6s %9d %10d %13.1f %11.1f %9.1f %10d %10d %s\n", l, f, o,
                 p / 1024, t / 1024, (t - p) / 1024, b, u, (u <= b ? "yes" : "NO") }'
    what="memory, $2 files and $3 writes"
    summary_row "$what: runtime's accounting" "$used" bytes "<= $budget"
    summary_row "$what: peak RSS added" "$(awk -v p="$plain" -v t="$traced" \
        'BEGIN { printf "%.1f", (t - p) / 1024 }')" MiB -
}

echo "iolens memory: peak resident memory traced and untraced (median of $RUNS runs)" \
    "and the runtime's accounting, IOLENS_MEMORY=$MEMORY"
echo "$(nproc) CPUs; $(uname -r)"
echo
printf '%-6s %9s %10s %13s %11s %9s %10s %10s %s\n' workload files ops untraced_MiB \
    traced_MiB added_MiB budget used within
measure files "$NFILES" 0
measure ops 0 "$NOPS"
echo
echo "budget, used: the log's \"memory budget\" and \"memory used\" (bytes), the runtime's own"
echo "accounting; added_MiB also counts the runtime's code and libraries (zlib, libc's share)."
