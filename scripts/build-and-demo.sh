#!/bin/sh
# Builds and installs iolens into ./_install, then traces a small MPI job
# (scripts/demo-mpi.c at 4 ranks, run unmodified under
# `mpiexec -genv LD_PRELOAD`) and summarizes its one log on screen.
# Safe to rerun: the build is incremental and the demo starts clean.
set -eu

cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=$TOP/_build
PREFIX=$TOP/_install
LOGDIR=$TOP/demo-logs
# Data goes outside the log directory, which iolens never traces.
DATADIR=$BUILD/demo-data
NPROCS=4

step() { printf '\n==> %s\n' "$*"; }

step "Checking Debian dependencies"
./scripts/install-deps.sh

step "Generating the build system (autoreconf -fi)"
autoreconf -fi

step "Configuring in $BUILD"
mkdir -p "$BUILD"
(cd "$BUILD" && "$TOP/configure" -q --prefix="$PREFIX" --with-log-dir="$LOGDIR")

step "Building and installing into $PREFIX"
make -C "$BUILD" -j2
make -C "$BUILD" install >/dev/null

LIB=$PREFIX/lib/libiolens.so
PARSER=$PREFIX/bin/iolens-parser
# The MPI compiler and launcher configure found.
MPICC=$(sed -n 's/^MPICC = //p' "$BUILD/Makefile")
MPIEXEC=$(sed -n 's/^MPIEXEC = //p' "$BUILD/Makefile")
if [ -z "$MPICC" ] || [ -z "$MPIEXEC" ]; then
    echo "build-and-demo: configure found no mpicc/mpiexec (is mpich installed?)" >&2
    exit 1
fi

step "Compiling the demo MPI program (an ordinary mpicc build, no iolens in it)"
"$MPICC" -O2 -o "$BUILD/demo-mpi" "$TOP/scripts/demo-mpi.c"

step "Tracing an MPI job: $(basename "$MPIEXEC") -n $NPROCS -genv LD_PRELOAD $LIB demo-mpi"
mkdir -p "$LOGDIR" "$DATADIR"
rm -f "$LOGDIR"/*.iolens "$DATADIR"/*
# An MPI program needs no IOLENS_NONMPI: it is traced from its start and
# its ranks write one log together in MPI_Finalize.  mpiexec itself and
# its helper processes also get the preload, and stay silent.
"$MPIEXEC" -n "$NPROCS" -genv LD_PRELOAD "$LIB" "$BUILD/demo-mpi" "$DATADIR"

step "Logs written (one for the whole job)"
ls -l "$LOGDIR"
set -- "$LOGDIR"/*.iolens
if [ "$#" -ne 1 ] || [ ! -e "$1" ]; then
    echo "build-and-demo: expected one log in $LOGDIR, found $# ($*)" >&2
    exit 1
fi
log=$1

step "The job (header lines of iolens-parser)"
"$PARSER" "$log" | grep -E '^# (exe|nprocs|nnodes|hosts|run_time|mpi library|rank [0-9]+):'

step "Files by kind of use (iolens-parser --file, header lines left out)"
"$PARSER" --file "$log" | grep -v '^# [^<]'

step "Totals over all ranks and files (a selection of iolens-parser --total)"
"$PARSER" --total "$log" |
    grep -E '^total_(POSIX_(OPENS|READS|WRITES|BYTES_READ|BYTES_WRITTEN)|STDIO_(OPENS|WRITES|BYTES_WRITTEN)|MPIIO_(COLL_OPENS|COLL_WRITES|INDEP_READS|BYTES_READ|BYTES_WRITTEN)):'

step "The shared checkpoint file: one MPI-IO record reduced over all ranks"
"$PARSER" "$log" |
    awk -F'\t' -v f="$DATADIR/checkpoint.dat" '
        $1 == "MPIIO" && $6 == f && $4 ~ /^MPIIO_(RANKS_OPENED|RANKS_IO|BYTES_WRITTEN|BYTES_READ|FASTEST_RANK|SLOWEST_RANK|F_FASTEST_RANK_TIME|F_SLOWEST_RANK_TIME|F_VARIANCE_RANK_TIME)$/ {
            printf "rank %s  %-28s %s\n", $2, $4, $5 }'

step "Bandwidth (iolens-parser --perf) and access patterns (--patterns)"
"$PARSER" --perf "$log" | grep -v '^# [^<]'
"$PARSER" --patterns "$log" | grep -v '^# [^<]'

step "What to change (iolens-parser --advice)"
# (the findings count, then each finding; a tidy job has none)
"$PARSER" --advice "$log" | sed -n '/^# advice findings:/,$p'

report=$LOGDIR/report.html
if [ -x "$PREFIX/bin/iolens-report" ] && "$PREFIX/bin/iolens-report" "$log" -o "$report"; then
    echo "A page to look at: $report"
fi

step "Done"
echo "The log:         $log"
echo "All counters:    $PARSER $log"
echo "Trace your own:  $(basename "$MPIEXEC") -n N -genv LD_PRELOAD $LIB ./app"
echo "or link it in:   mpicc -profile=$PREFIX/etc/mpich/iolens app.c -o app"
