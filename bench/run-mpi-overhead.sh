#!/bin/sh
# MPI-IO call overhead (make bench): a 1 KiB MPI_File_write_at at 1 rank,
# traced against untraced.
#
#   run-mpi-overhead.sh BUILD_DIR [SOURCE_DIR]
#
# bench/mpi_overhead.c is compiled with MPICC and run RUNS times (default
# 7) untraced and traced (alternating which goes first) under
# MPIEXEC -n 1; prints the medians and the added nanoseconds per call.
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
trap 'rm -rf "$WORK"' EXIT INT TERM
"$MPICC" -O2 -o "$WORK/mpi_overhead" "$SRC/bench/mpi_overhead.c"

median() {
    sort -g | awk '{ v[NR] = $1 }
        END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
run_untraced() { "$MPIEXEC" -n 1 "$WORK/mpi_overhead" "$CALLS" "$WORK"; }
run_traced() {
    "$MPIEXEC" -n 1 -genv LD_PRELOAD "$LIB" -genv IOLENS_INCLUDE "$WORK" \
        -genv IOLENS_LOGFILE "$1" "$WORK/mpi_overhead" "$CALLS" "$WORK"
}

: >"$WORK/u" && : >"$WORK/t"
i=1
while [ "$i" -le "$RUNS" ]; do
    if [ $((i % 2)) -eq 1 ]; then
        run_untraced >>"$WORK/u"
        run_traced "$WORK/run-$i.iolens" >>"$WORK/t"
    else
        run_traced "$WORK/run-$i.iolens" >>"$WORK/t"
        run_untraced >>"$WORK/u"
    fi
    i=$((i + 1))
done
u=$(median <"$WORK/u")
t=$(median <"$WORK/t")
seen=$("$PARSER" --total "$WORK/run-1.iolens" 2>/dev/null |
    awk '$1 == "total_MPIIO_INDEP_WRITES:" { print $2 }')
echo "iolens MPI-IO overhead: 1 KiB MPI_File_write_at, 1 rank, median of $RUNS runs"
printf '%-16s %12s %12s %10s %7s %14s\n' op untraced_ns traced_ns added_ns ratio calls_in_log
awk -v u="$u" -v t="$t" -v s="${seen:-none}" 'BEGIN {
    printf "%-16s %12.1f %12.1f %10.1f %7.3f %14s\n", "mpi_write_at1k", u, t, t - u,
        (u > 0 ? t / u : 0), s }'
summary_row "MPI_File_write_at 1 KiB, 1 rank: ns added" \
    "$(awk -v u="$u" -v t="$t" 'BEGIN { printf "%.1f", t - u }')" ns -
