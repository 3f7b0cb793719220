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
# default 2M, the runtime's default), RUNS (default 5).  The peak added is
# paired: each traced run against the untraced run before it, the median
# and min..max over the pairs; the accounting is each traced run's log's.
# The full sizes, NFILES=1000000 NOPS=100000000, take some minutes.
#
# Then the files kept apart in the default budget: prog_stress creates
# KEPT_FILES files (default 12000, doubled until some are folded) under
# the runtime's default IOLENS_MEMORY, KEPT_RUNS times (default 3); the
# figure is how many got a record of their own before the runtime began
# folding them into <other files> (the log's POSIX records of those
# files; with the "folded opens" of the header they must add up to every
# file), and the bytes a file costs, the budget over the files kept.
# Target: at least 4000 files.
# The files go to a scratch directory under TMPDIR (/tmp).
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
KEPT_FILES=${KEPT_FILES:-12000}
KEPT_RUNS=${KEPT_RUNS:-3}
(cd "$BUILD" && make tests/integration/prog_stress >/dev/null)
for f in "$LIB" "$PARSER" "$PROG" /usr/bin/time; do
    if [ ! -x "$f" ] && [ ! -f "$f" ]; then
        echo "run-memory: $f is missing (build the project; /usr/bin/time is Debian's time)" >&2
        exit 1
    fi
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/iolens-memory-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

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
    : >"$WORK/pairs" && : >"$WORK/used"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        plain=$(peak_kib "" "$2" "$3")
        rm -f "$WORK/log"
        traced=$(peak_kib "$WORK/log" "$2" "$3")
        echo "$plain $traced" >>"$WORK/pairs"
        header "$WORK/log" "memory used" >>"$WORK/used"
        i=$((i + 1))
    done
    plain=$(awk '{ print $1 / 1024 }' "$WORK/pairs" | summary_stats %.1f)
    traced=$(awk '{ print $2 / 1024 }' "$WORK/pairs" | summary_stats %.1f)
    added=$(awk '{ print ($2 - $1) / 1024 }' "$WORK/pairs" | summary_stats %.1f)
    used=$(summary_stats %.0f <"$WORK/used")
    budget=$(header "$WORK/log" "memory budget")
    within=$(summary_verdict "$(echo "$used" | awk '{ split($2, a, "[.][.]"); print a[2] }')" \
        "<= $budget")
    printf '%-6s %9d %10d %13s %11s %9s %-11s %10s %10s %s\n' "$1" "$2" "$3" "${plain%% *}" \
        "${traced%% *}" "${added%% *}" "${added#* }" "$budget" "${used%% *}" "$within"
    what="memory, $2 files and $3 writes"
    summary_row "$what: runtime's accounting" "${used%% *}" bytes "<= $budget" "${used#* }"
    summary_row "$what: peak RSS added" "${added%% *}" MiB - "${added#* }"
}

# One run of prog_stress with N files under the default budget: writes
# "KEPT FOLDED BUDGET" to $WORK/once, the files that got a record of their
# own, the opens folded into <other files> and the budget.
kept_once() {
    rm -rf "$WORK/k" "$WORK/kept.iolens" && mkdir "$WORK/k"
    (unset IOLENS_MEMORY
        IOLENS_NONMPI=1 IOLENS_LOGFILE="$WORK/kept.iolens" LD_PRELOAD="$LIB" \
            "$PROG" "$WORK/k" "$1" 0 >/dev/null) || return 1
    own=$("$PARSER" --base "$WORK/kept.iolens" | awk -F'\t' -v d="$WORK/k/f" '
        $1 == "POSIX" && $4 == "POSIX_OPENS" && index($6, d) == 1 { n++ } END { print n + 0 }')
    echo "$own $(header "$WORK/kept.iolens" "folded opens")" \
        "$(header "$WORK/kept.iolens" "memory budget")" >"$WORK/once"
}

kept_apart() {
    n=$KEPT_FILES
    : >"$WORK/kept"
    i=1
    while [ "$i" -le "$KEPT_RUNS" ]; do
        kept_once "$n"
        read -r own folded budget <"$WORK/once"
        if [ "$own" -ge "$n" ] && [ "$n" -lt 1000000 ]; then
            n=$((n * 2))    # nothing folded yet: more files, and start again
            : >"$WORK/kept"
            i=1
            continue
        fi
        # prog_stress also opens DIR/big, folded too: files + 1 opens in all.
        if [ $((own + folded)) -ne $((n + 1)) ]; then
            echo "run-memory: $own files kept and $folded opens folded, not $((n + 1))" >&2
        elif [ "$own" -lt "$n" ]; then
            echo "$own $budget" >>"$WORK/kept"
        fi
        i=$((i + 1))
    done
    kept=$(awk '{ print $1 }' "$WORK/kept" | summary_stats %.0f)
    cost=$(awk '$1 > 0 { print $2 / $1 }' "$WORK/kept" | summary_stats %.0f)
    printf '%-10s %9s %-13s %9s %14s %s\n' "$n" "${kept%% *}" "${kept#* }" "${budget:--}" \
        "${cost%% *}" "${cost#* }"
    summary_row "files kept apart in the default budget" "${kept%% *}" files ">= 4000" \
        "${kept#* }"
    summary_row "bytes a file costs (default budget / files kept)" "${cost%% *}" bytes - \
        "${cost#* }"
}

echo "iolens memory: peak resident memory traced and untraced ($RUNS pairs of runs)" \
    "and the runtime's accounting, IOLENS_MEMORY=$MEMORY"
echo "$(nproc) CPUs; $(uname -r)"
echo
printf '%-6s %9s %10s %13s %11s %9s %-11s %10s %10s %s\n' workload files ops untraced_MiB \
    traced_MiB added_MiB spread budget used within
measure files "$NFILES" 0
measure ops 0 "$NOPS"
echo
echo "budget, used: the log's \"memory budget\" and \"memory used\" (bytes; used: the median,"
echo "within: its largest against the budget), the runtime's own accounting; added_MiB, the"
echo "median over the pairs of runs, also counts the runtime's code and libraries (zlib, libc's"
echo "share); spread: min..max over the pairs."
echo
echo "files kept apart in the default budget: $KEPT_RUNS runs"
printf '%-10s %9s %-13s %9s %14s %s\n' files kept spread budget bytes_a_file spread
kept_apart
echo "kept: files with a record of their own before the runtime folded the rest into"
echo "<other files> (target: at least 4000); bytes_a_file: the budget over the files kept."
