#!/bin/sh
# MPI-IO call overhead (make bench): a 1 KiB MPI_File_write_at at 1 rank,
# traced against untraced.
#
#   run-mpi-overhead.sh BUILD_DIR [SOURCE_DIR]
#
# bench/mpi_overhead.c is compiled with MPICC and run RUNS times (default
# 7) untraced and traced (alternating which goes first) under
# MPIEXEC -n 1; prints the medians, and the added nanoseconds per call and
# the ratio from the pairs of adjacent runs (median and min..max over the
# pairs).  The scratch directory is under /dev/shm, a memory file system,
# so that the figure is the call's cost and not a disk's.
# MPICC and MPIEXEC come from the environment (make bench passes
# configure's), else from BUILD_DIR/Makefile.  A figure, not a test.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=${1:?usage: run-mpi-overhead.sh BUILD_DIR [SOURCE_DIR]}
BUILD=$(cd "$BUILD" && pwd)
SRC=${2:-$(cd "$(dirname "$0")/.." && pwd)}
LIB=$BUILD/.libs/libiolens.so
PARSER=$BUILD/iolens-parser
RUNS=${RUNS:-7}
CALLS=${CALLS:-200000}

from_makefile() {
    sed -n "s/^$1 = //p" "$BUILD/Makefile" 2>/dev/null
}
MPICC=${MPICC:-$(from_makefile MPICC)}
MPIEXEC=${MPIEXEC:-$(from_makefile MPIEXEC)}
if [ -z "$MPICC" ] || [ -z "$MPIEXEC" ]; then
    echo "run-mpi-overhead: no mpicc/mpiexec (configure found none); MPI-IO row skipped"
    exit 0
fi
WORK=$(mktemp -d /dev/shm/iolens-mpi-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
"$MPICC" -O2 -o "$WORK/mpi_overhead" "$SRC/bench/mpi_overhead.c"
run_untraced() { "$MPIEXEC" -n 1 "$WORK/mpi_overhead" "$CALLS" "$WORK"; }
run_traced() {
    "$MPIEXEC" -n 1 -genv LD_PRELOAD "$LIB" -genv IOLENS_INCLUDE "$WORK" \
        -genv IOLENS_LOGFILE "$1" "$WORK/mpi_overhead" "$CALLS" "$WORK"
}

: >"$WORK/pairs"
i=1
while [ "$i" -le "$RUNS" ]; do
    if [ $((i % 2)) -eq 1 ]; then
        u=$(run_untraced)
        t=$(run_traced "$WORK/run-$i.iolens")
    else
        t=$(run_traced "$WORK/run-$i.iolens")
        u=$(run_untraced)
    fi
    echo "$u $t" >>"$WORK/pairs"
    i=$((i + 1))
done
u=$(awk '{ print $1 }' "$WORK/pairs" | summary_stats %.1f)
t=$(awk '{ print $2 }' "$WORK/pairs" | summary_stats %.1f)
d=$(awk '{ print $2 - $1 }' "$WORK/pairs" | summary_stats %.1f)
r=$(awk '{ print ($1 > 0 ? $2 / $1 : "noise") }' "$WORK/pairs" | summary_stats %.3f)
seen=$("$PARSER" --total "$WORK/run-1.iolens" 2>/dev/null |
    awk '$1 == "total_MPIIO_INDEP_WRITES:" { print $2 }')
echo "iolens MPI-IO overhead: 1 KiB MPI_File_write_at, 1 rank, $RUNS pairs of adjacent runs"
printf '%-16s %12s %12s %10s %-15s %7s %-13s %14s\n' op untraced_ns traced_ns added_ns spread \
    ratio spread calls_in_log
printf '%-16s %12s %12s %10s %-15s %7s %-13s %14s\n' mpi_write_at1k "${u%% *}" "${t%% *}" \
    "${d%% *}" "${d#* }" "${r%% *}" "${r#* }" "${seen:-none}"
summary_row "MPI_File_write_at 1 KiB, 1 rank: ns added (adjacent runs)" "${d%% *}" ns - \
    "${d#* }" 0
