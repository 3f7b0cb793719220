#!/bin/sh
# Shutdown cost of an MPI job (make bench, after the overhead table).
#
#   run-shutdown.sh BUILD_DIR [SOURCE_DIR]
#
# Runs bench/shutdown.c at NPROCS ranks (default 8) for every combination
# of UNIQUE files per rank (default "10 1000 10000") and SHARED files
# (default "1 100"), untraced and traced (mpiexec -genv LD_PRELOAD), RUNS
# times each (default 5, alternating which goes first), and prints the
# time spent in MPI_Finalize (the slowest rank's): the medians over the
# runs and the traced run minus the untraced one next to it, median and
# min..max over those pairs.  Then the log's size per record, over every
# traced run's log: records are counted by iolens-parser --file (every
# file has exactly one POSIX record: its own, or the reduced one of a
# shared file); the expected count, NPROCS * UNIQUE + SHARED, is shown
# next to it.  IOLENS_MEMORY is raised (BENCH_MEMORY, default 64M) so
# that no file is folded into <other files>.  For 1000 files a rank and
# more, the summary also gives iolens-parser --sites on the first traced
# log, in records per second.
#
# Then the curve: the same at each of CURVE_RANKS ranks (default
# "2 4 8 16") with CURVE_UNIQUE files a rank (default 100) and
# CURVE_SHARED shared files (default 10), the files a rank has fixed, to
# show what grows with the ranks (on a 2-CPU machine 16 ranks are
# oversubscribed).
#
# Targets: MPI_Finalize at most 0.5 s at 8 ranks x 1000 files + 100
# shared, at most 0.3 s at 8 ranks x 10000 files + 100 shared (traced);
# at most 40 log bytes a record from 1000 files a rank.
# MPICC and MPIEXEC come from the environment (make bench passes
# configure's), else from BUILD_DIR/Makefile.  Scratch under TMPDIR (/tmp).
# A figure, not a test: nothing here passes or fails.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=${1:?usage: run-shutdown.sh BUILD_DIR [SOURCE_DIR]}
BUILD=$(cd "$BUILD" && pwd)
SRC=${2:-$(cd "$(dirname "$0")/.." && pwd)}
LIB=$BUILD/.libs/libiolens.so
PARSER=$BUILD/iolens-parser
RUNS=${RUNS:-5}
NPROCS=${NPROCS:-8}
UNIQUE=${UNIQUE:-10 1000 10000}
SHARED=${SHARED:-1 100}
CURVE_RANKS=${CURVE_RANKS:-2 4 8 16}
CURVE_UNIQUE=${CURVE_UNIQUE:-100}
CURVE_SHARED=${CURVE_SHARED:-10}
MEMORY=${BENCH_MEMORY:-64M}
# A run that takes longer than this is stopped and shown as failed.
RUN_TIMEOUT=${RUN_TIMEOUT:-300}

from_makefile() {
    sed -n "s/^$1 = //p" "$BUILD/Makefile" 2>/dev/null
}
MPICC=${MPICC:-$(from_makefile MPICC)}
MPIEXEC=${MPIEXEC:-$(from_makefile MPIEXEC)}
if [ -z "$MPICC" ] || [ -z "$MPIEXEC" ]; then
    echo "run-shutdown: no mpicc/mpiexec (configure found none); shutdown table skipped"
    exit 0
fi
for f in "$LIB" "$PARSER"; do
    if [ ! -e "$f" ]; then
        echo "run-shutdown: $f is missing; run 'make bench' in the build directory" >&2
        exit 1
    fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/iolens-shutdown.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
BENCH=$WORK/shutdown
"$MPICC" -O2 -o "$BENCH" "$SRC/bench/shutdown.c"

# Runs the job once; prints the slowest rank's seconds in MPI_Finalize, or
# nothing if the job failed.  $1: traced|untraced, $2 ranks, $3 log dir,
# $4 data dir, $5 unique, $6 shared.
run_job() {
    out=$WORK/out
    if [ "$1" = traced ]; then
        set -- "$MPIEXEC" -n "$2" -genv LD_PRELOAD "$LIB" -genv IOLENS_LOGDIR "$3" \
            -genv IOLENS_MEMORY "$MEMORY" "$BENCH" "$4" "$5" "$6"
    else
        set -- "$MPIEXEC" -n "$2" "$BENCH" "$4" "$5" "$6"
    fi
    if timeout "$RUN_TIMEOUT" "$@" >"$out" 2>"$WORK/err"; then
        awk '$1 == "finalize_seconds" { if ($2 > m) m = $2; n++ }
             END { if (n > 0) printf "%.4f\n", m }' "$out"
    else
        sed 's/^/  run-shutdown: /' "$WORK/err" | head -n 5 >&2
    fi
}

# Value of "# NAME: value" in the parser's header.
header_of() {
    "$PARSER" "$1" 2>/dev/null | awk -v k="# $2:" '
        index($0, k) == 1 { print substr($0, length(k) + 2); exit }
        /^[^#]/ { exit }'
}

# RUNS pairs of jobs at RANKS ranks, UNIQUE and SHARED files: writes
# "UNTRACED TRACED" a line to $WORK/pairs ("-" for a job that failed), and
# keeps each traced run's logs in $WORK/logs-I.
pairs_of_jobs() {
    data=$WORK/data
    rm -rf "$data" "$WORK"/logs-* && mkdir "$data"
    : >"$WORK/pairs"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        logs=$WORK/logs-$i
        mkdir "$logs"
        if [ $((i % 2)) -eq 1 ]; then
            untraced_s=$(run_job untraced "$1" "$logs" "$data" "$2" "$3")
            traced_s=$(run_job traced "$1" "$logs" "$data" "$2" "$3")
        else
            traced_s=$(run_job traced "$1" "$logs" "$data" "$2" "$3")
            untraced_s=$(run_job untraced "$1" "$logs" "$data" "$2" "$3")
        fi
        echo "${untraced_s:--} ${traced_s:--}" >>"$WORK/pairs"
        i=$((i + 1))
    done
}

# Bytes per record of each traced run's log, one a line; the first log's
# record count and folded files go to $WORK/first ("RECORDS FOLDED").
bytes_per_record() {
    : >"$WORK/first"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        set -- "$WORK/logs-$i"/*.iolens
        if [ "$#" -eq 1 ] && [ -f "$1" ]; then
            bytes=$(wc -c <"$1" | tr -d ' ')
            records=$("$PARSER" --file "$1" 2>/dev/null | awk -F'\t' '$1 == "total" { print $2 }')
            if [ "$i" -eq 1 ]; then
                folded=$(header_of "$1" "folded files")
                echo "${records:--} ${folded%% *}" >"$WORK/first"
            fi
            case $records in
            "" | *[!0-9]* | 0) ;;
            *) awk -v b="$bytes" -v r="$records" 'BEGIN { print b / r }' ;;
            esac
        elif [ "$i" -eq 1 ]; then
            if [ "$#" -gt 1 ]; then echo "$#-logs! -" >"$WORK/first"; else echo "no-log -" >"$WORK/first"; fi
        fi
        i=$((i + 1))
    done
}

# Records per second of iolens-parser --sites on the first traced run's
# log (RECORDS of them): one sites query per record and layer, which once
# scanned every site of the log ("-" without a log).
sites_rate() {
    set -- "$WORK/logs-1"/*.iolens "$1"
    [ -f "$1" ] || { echo -; return; }
    t0=$(date +%s.%N)
    "$PARSER" --sites "$1" >/dev/null 2>&1 || { echo -; return; }
    t1=$(date +%s.%N)
    awk -v r="$2" -v a="$t0" -v b="$t1" 'BEGIN { if (b > a && r > 0) printf "%.0f\n", r / (b - a); else print "-" }'
}

echo "iolens shutdown cost: $NPROCS ranks on $(nproc) CPUs, $RUNS pairs of runs"
echo "MPI_Finalize: slowest rank's seconds; traced with IOLENS_MEMORY=$MEMORY"
echo
printf '%6s %6s %8s %9s %10s %-15s %9s %-15s %9s %-17s %6s %-11s %s\n' unique shared records \
    expected untraced_s spread traced_s spread added_s spread B/rec spread folded
for u in $UNIQUE; do
    for s in $SHARED; do
        pairs_of_jobs "$NPROCS" "$u" "$s"
        plain=$(awk '{ print $1 }' "$WORK/pairs" | summary_stats %.4f)
        traced=$(awk '{ print $2 }' "$WORK/pairs" | summary_stats %.4f)
        added=$(awk '$1 != "-" && $2 != "-" { print $2 - $1 }' "$WORK/pairs" | summary_stats %.4f)
        per=$(bytes_per_record | summary_stats %.1f)
        read -r records folded <"$WORK/first"
        printf '%6d %6d %8s %9d %10s %-15s %9s %-15s %9s %-17s %6s %-11s %s\n' "$u" "$s" \
            "$records" $((NPROCS * u + s)) "${plain%% *}" "${plain#* }" "${traced%% *}" \
            "${traced#* }" \
            "${added%% *}" "${added#* }" "${per%% *}" "${per#* }" "${folded:--}"
        what="shutdown, $NPROCS ranks x $u files + $s shared"
        finalize_target=-
        if [ "$NPROCS" = 8 ] && [ "$s" = 100 ]; then
            [ "$u" = 1000 ] && finalize_target="<= 0.5"
            [ "$u" = 10000 ] && finalize_target="<= 0.3"
        fi
        summary_row "$what: MPI_Finalize traced" "${traced%% *}" s "$finalize_target" \
            "${traced#* }"
        summary_row "$what: MPI_Finalize untraced" "${plain%% *}" s - "${plain#* }"
        bytes_target=-   # with 10 files a rank the job's own regions dominate
        [ "$u" -ge 1000 ] && bytes_target="<= 40"
        summary_row "$what: log bytes per record" "${per%% *}" B/record "$bytes_target" \
            "${per#* }"
        if [ "$u" -ge 1000 ]; then
            summary_row "$what: iolens-parser --sites, records/s" "$(sites_rate "$records")" \
                records/s - -
        fi
    done
done
echo
echo "untraced_s, traced_s: medians over the runs; added_s: traced minus the untraced run next to"
echo "it, median over the pairs; spread: min..max.  B/rec: log bytes per record of each traced"
echo "run's log, median and min..max.  records, folded: the first traced run's log."
echo "A traced_s of '-' means the traced job failed or timed out (${RUN_TIMEOUT} s)."

echo
echo "MPI_Finalize against the ranks: $CURVE_UNIQUE files a rank + $CURVE_SHARED shared," \
    "$RUNS pairs of runs"
printf '%6s %10s %-17s %9s %-15s %9s %s\n' ranks untraced_s spread traced_s spread \
    added_s spread
for n in $CURVE_RANKS; do
    pairs_of_jobs "$n" "$CURVE_UNIQUE" "$CURVE_SHARED"
    plain=$(awk '{ print $1 }' "$WORK/pairs" | summary_stats %.4f)
    traced=$(awk '{ print $2 }' "$WORK/pairs" | summary_stats %.4f)
    added=$(awk '$1 != "-" && $2 != "-" { print $2 - $1 }' "$WORK/pairs" | summary_stats %.4f)
    printf '%6d %10s %-17s %9s %-15s %9s %s\n' "$n" "${plain%% *}" "${plain#* }" \
        "${traced%% *}" "${traced#* }" "${added%% *}" "${added#* }"
    what="MPI_Finalize curve, $n ranks x $CURVE_UNIQUE files + $CURVE_SHARED shared"
    summary_row "$what: traced" "${traced%% *}" s - "${traced#* }"
    summary_row "$what: untraced" "${plain%% *}" s - "${plain#* }"
done
rm -rf "$WORK/data" "$WORK"/logs-*
echo
echo "Targets: MPI_Finalize (traced_s) at most 0.5 s at 8 ranks x 1000 files a rank + 100"
echo "shared, at most 0.3 s at 8 ranks x 10000 + 100; at most 40 log bytes per record from"
echo "1000 files a rank, names included."
