#!/bin/sh
# Parser throughput and memory (make bench).
#
#   run-parser.sh BUILD_DIR
#
# bench/make_big_log writes a log of RECORDS POSIX records (default 10^6)
# over RANKS ranks (default 512: about 2000 records a rank, a rank's part
# within the runtime's default 2 MiB budget, as in a real job's log);
# iolens-parser then reads it RUNS times (default 5) with --total and with
# --base (the full counter dump, to /dev/null).  Prints the median seconds,
# records per second and the peak resident memory (GNU time's %M) of each,
# with the min..max of the rate and of the memory over the runs.
# Targets: 2x10^6 records/s for --total, 2x10^5 for --base, and at most
# 64 MiB whatever the log's size.  Both modes stream the log (one region
# at a time, util/reader/reader_stream.c), so the peak is bounded by a region,
# not by the log.  Then one line each for a fat log of the same records
# over 8 ranks (FAT_RANKS): a rank's part there is some 125000 records,
# far above what the default budget lets a rank write, which the writers
# split into regions of 8192 records (lib/log/log_regions.h), as the runtime
# would.
# A figure, not a test.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=${1:?usage: run-parser.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
PARSER=$BUILD/iolens-parser
MAKELOG=$BUILD/bench/make_big_log
RECORDS=${RECORDS:-1000000}
RUNS=${RUNS:-5}
RANKS=${RANKS:-512}
FAT_RANKS=${FAT_RANKS:-8}
for f in "$PARSER" "$MAKELOG"; do
    if [ ! -x "$f" ]; then
        echo "run-parser: $f is missing; run 'make bench' in the build directory" >&2
        exit 1
    fi
done
if [ ! -x /usr/bin/time ]; then
    echo "run-parser: /usr/bin/time (Debian package time) is needed for the memory figure" >&2
    exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/iolens-parser-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
LOG=$WORK/big.iolens
FAT=$WORK/fat.iolens
"$MAKELOG" "$LOG" "$RECORDS" "$RANKS"
"$MAKELOG" "$FAT" "$RECORDS" "$FAT_RANKS"

# One line: MODE LOG LABEL RANKS.
measure() {
    mode=$1
    : >"$WORK/runs"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        /usr/bin/time -f '%e %M' -o "$WORK/one" "$PARSER" --$mode "$2" >/dev/null
        tail -n 1 "$WORK/one" >>"$WORK/runs"
        i=$((i + 1))
    done
    sec=$(awk '{ print $1 }' "$WORK/runs" | summary_stats %.2f)
    rate=$(awk -v n="$RECORDS" '{ print ($1 > 0 ? n / $1 : "-") }' "$WORK/runs" | summary_stats %.0f)
    mem=$(awk '{ print $2 / 1024 }' "$WORK/runs" | summary_stats %.1f)
    target=2e6
    [ "$mode" = base ] && target=2e5
    printf '%-12s %10s %14s %-19s %10s %-13s %10s\n' "$3" "${sec%% *}" "${rate%% *}" \
        "${rate#* }" "${mem%% *}" "${mem#* }" "$target"
    what="parser --$mode, $RECORDS records over $4 ranks"
    summary_row "$what: records/s" "${rate%% *}" records/s ">= $target" "${rate#* }"
    summary_row "$what: peak memory" "${mem%% *}" MiB "<= 64" "${mem#* }"
}

echo "iolens-parser on a log of $RECORDS records over $RANKS ranks ($(wc -c <"$LOG") bytes)," \
    "and over $FAT_RANKS ranks ($(wc -c <"$FAT") bytes): median and min..max of $RUNS runs"
echo "$(nproc) CPUs; $(uname -r)"
echo
printf '%-12s %10s %14s %-19s %10s %-13s %10s\n' mode seconds records_per_s spread peak_MiB \
    spread target
for mode in total base; do
    measure $mode "$LOG" "$mode" "$RANKS"
done
for mode in total base; do
    measure $mode "$FAT" "$mode/$FAT_RANKS" "$FAT_RANKS"
done
echo "(total/$FAT_RANKS, base/$FAT_RANKS: regions of 8192 records, as the runtime writes them)"

# A Darshan log (issue 20): the partial fixture (1,024 POSIX records,
# Darshan 3.5.0, log format 3.41) from ../shared/fixtures/darshan (or
# IOLENS_DARSHAN_FIXTURES), named DARSHAN_COPIES times (default 200) on
# one command line, so that process start-up does not dominate.
# darshan-parser itself is not a Debian package and is not installed here,
# so the target is its --total rate on this machine kind as issue 20's
# table gives it: 4.3x10^5 records/s.
FIXTURES=${IOLENS_DARSHAN_FIXTURES:-}
if [ -z "$FIXTURES" ]; then
    # ../shared beside the source tree or one of its parents (a worktree).
    dir=$(cd "$(dirname "$0")/.." && pwd)
    while [ "$dir" != / ] && [ ! -d "$dir/../shared/fixtures/darshan" ]; do
        dir=$(dirname "$dir")
    done
    FIXTURES=$dir/../shared/fixtures/darshan
fi
DLOG=$FIXTURES/serial-partial.darshan
echo
if [ ! -r "$DLOG" ]; then
    echo "Darshan log: skipped ($DLOG is not there)"
    exit 0
fi
COPIES=${DARSHAN_COPIES:-200}
DRECORDS=$("$PARSER" --base "$DLOG" | awk -F'\t' '!/^#/ && NF > 2 { print $1, $3 }' |
    sort -u | wc -l)
set --
i=0
while [ "$i" -lt "$COPIES" ]; do
    set -- "$@" "$DLOG"
    i=$((i + 1))
done
: >"$WORK/druns"
i=1
while [ "$i" -le "$RUNS" ]; do
    /usr/bin/time -f '%e %M' -o "$WORK/one" "$PARSER" --total "$@" >/dev/null
    tail -n 1 "$WORK/one" >>"$WORK/druns"
    i=$((i + 1))
done
n=$((DRECORDS * COPIES))
sec=$(awk '{ print $1 }' "$WORK/druns" | summary_stats %.2f)
rate=$(awk -v n="$n" '{ print ($1 > 0 ? n / $1 : "-") }' "$WORK/druns" | summary_stats %.0f)
echo "iolens-parser --total on a Darshan log ($DRECORDS records, read $COPIES times in one run):" \
    "median and min..max of $RUNS runs"
printf '%-12s %10s %14s %-19s %10s\n' mode seconds records_per_s spread target
printf '%-12s %10s %14s %-19s %10s\n' darshan "${sec%% *}" "${rate%% *}" "${rate#* }" 4.3e5
summary_row "parser --total, a Darshan log ($DRECORDS records x $COPIES): records/s" \
    "${rate%% *}" records/s ">= 4.3e5" "${rate#* }"
