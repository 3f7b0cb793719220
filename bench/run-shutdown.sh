#!/bin/sh
# Shutdown cost of an MPI job (make bench, after the overhead table).
#
#   run-shutdown.sh BUILD_DIR [SOURCE_DIR]
#
# Runs bench/shutdown.c at NPROCS ranks (default 8) for every combination
# of UNIQUE files per rank (default "10 1000 10000") and SHARED files
# (default "1 100"), untraced and traced (mpiexec -genv LD_PRELOAD), RUNS
# times each (default 5, alternating which goes first), and prints the
# median time spent in MPI_Finalize (the slowest rank's) and the log's
# size per record.  Records are counted by iolens-parser --file (every
# file has exactly one POSIX record: its own, or the reduced one of a
# shared file); the expected count, NPROCS * UNIQUE + SHARED, is shown
# next to it.  IOLENS_MEMORY is raised (BENCH_MEMORY, default 64M) so
# that no file is folded into <other files>.
# MPICC and MPIEXEC come from the environment (make bench passes
# configure's), else from BUILD_DIR/Makefile.
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

WORK=$(mktemp -d /tmp/iolens-shutdown.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
BENCH=$WORK/shutdown
"$MPICC" -O2 -o "$BENCH" "$SRC/bench/shutdown.c"

median() {
    sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) print "-"
        else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Runs the job once; prints the slowest rank's seconds in MPI_Finalize, or
# nothing if the job failed.  $1: traced|untraced, $2 log dir, $3 data
# dir, $4 unique, $5 shared.
run_job() {
    out=$WORK/out
    if [ "$1" = traced ]; then
        set -- "$MPIEXEC" -n "$NPROCS" -genv LD_PRELOAD "$LIB" -genv IOLENS_LOGDIR "$2" \
            -genv IOLENS_MEMORY "$MEMORY" "$BENCH" "$3" "$4" "$5"
    else
        set -- "$MPIEXEC" -n "$NPROCS" "$BENCH" "$3" "$4" "$5"
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

echo "iolens shutdown cost: $NPROCS ranks on $(nproc) CPUs, median of $RUNS runs"
echo "finalize_s: slowest rank's time in MPI_Finalize; traced with IOLENS_MEMORY=$MEMORY"
echo
printf '%6s %6s %8s %12s %10s %10s %10s %10s %9s %8s\n' \
    unique shared records expected untraced_s traced_s added_s log_bytes B/record folded
for u in $UNIQUE; do
    for s in $SHARED; do
        data=$WORK/data-$u-$s
        mkdir -p "$data"
        : >"$WORK/untraced" && : >"$WORK/traced"
        i=1
        while [ "$i" -le "$RUNS" ]; do
            logs=$WORK/logs-$u-$s-$i
            mkdir -p "$logs"
            if [ $((i % 2)) -eq 1 ]; then
                run_job untraced "$logs" "$data" "$u" "$s" >>"$WORK/untraced"
                run_job traced "$logs" "$data" "$u" "$s" >>"$WORK/traced"
            else
                run_job traced "$logs" "$data" "$u" "$s" >>"$WORK/traced"
                run_job untraced "$logs" "$data" "$u" "$s" >>"$WORK/untraced"
            fi
            i=$((i + 1))
        done
        plain=$(median <"$WORK/untraced")
        traced=$(median <"$WORK/traced")
        # The first traced run's log: exactly one is expected.
        set -- "$WORK/logs-$u-$s-1"/*.iolens
        records="-" bytes="-" folded="-"
        if [ "$#" -eq 1 ] && [ -f "$1" ]; then
            bytes=$(wc -c <"$1" | tr -d ' ')
            records=$("$PARSER" --file "$1" 2>/dev/null | awk -F'\t' '$1 == "total" { print $2 }')
            folded=$(header_of "$1" "folded files")
        elif [ "$#" -gt 1 ]; then
            records="$# logs!"
        else
            records="no log"
        fi
        [ -n "$traced" ] || traced="-"
        awk -v u="$u" -v s="$s" -v r="${records:--}" -v e=$((NPROCS * u + s)) -v p="$plain" \
            -v t="$traced" -v b="$bytes" -v f="${folded:--}" 'BEGIN {
            added = (p != "-" && t != "-") ? sprintf("%.4f", t - p) : "-"
            per = (r ~ /^[0-9]+$/ && r > 0 && b != "-") ? sprintf("%.1f", b / r) : "-"
            printf "%6d %6d %8s %12d %10s %10s %10s %10s %9s %8s\n", u, s, r, e, p, t, added, b, per, f }'
        what="shutdown, $NPROCS ranks x $u files + $s shared"
        finalize_target=-
        [ "$u" = 1000 ] && [ "$s" = 100 ] && finalize_target="<= 0.5"
        summary_row "$what: MPI_Finalize traced" "$traced" s "$finalize_target"
        summary_row "$what: MPI_Finalize untraced" "$plain" s -
        bytes_target=-   # with 10 files a rank the job's own regions dominate
        [ "$u" -ge 1000 ] && bytes_target="<= 40"
        summary_row "$what: log bytes per record" \
            "$(awk -v r="${records:--}" -v b="$bytes" 'BEGIN {
                print (r ~ /^[0-9]+$/ && r > 0 && b != "-") ? sprintf("%.1f", b / r) : "-" }')" \
            B/record "$bytes_target"
        rm -rf "$data" "$WORK"/logs-"$u"-"$s"-*
    done
done
echo
echo "Targets: at most 0.5 s in MPI_Finalize at 8 ranks x 1000 files per rank + 100 shared"
echo "files (traced_s), at most 40 log bytes per unique-file record, names included."
echo "A traced_s of '-' means the traced job failed or timed out (${RUN_TIMEOUT} s)."
