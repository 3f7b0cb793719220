#!/bin/sh
# Builds and installs iolens into ./_install, then traces two unmodified
# system programs (dd and cp) and summarizes the newest log on screen.
# Safe to rerun: the build is incremental and the demo starts clean.
set -eu

cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=$TOP/_build
PREFIX=$TOP/_install
LOGDIR=$TOP/demo-logs
# Data goes outside the log directory, which iolens never traces.
DATADIR=$BUILD/demo-data

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

step "Tracing dd and cp (IOLENS_NONMPI=1 LD_PRELOAD=$LIB)"
mkdir -p "$LOGDIR" "$DATADIR"
rm -f "$LOGDIR"/*.iolens "$DATADIR"/demo.dat "$DATADIR"/demo-copy.dat
# 160 writes of 64 KiB = 10 MiB.
IOLENS_NONMPI=1 LD_PRELOAD=$LIB \
    dd if=/dev/zero of="$DATADIR/demo.dat" bs=64k count=160 status=none
# --reflink=never makes cp copy with read/write instead of one in-kernel
# copy_file_range, so the log shows its 128 KiB reads and writes.
IOLENS_NONMPI=1 LD_PRELOAD=$LIB \
    cp --reflink=never "$DATADIR/demo.dat" "$DATADIR/demo-copy.dat"

step "Logs written"
ls -l "$LOGDIR"
# shellcheck disable=SC2012  # log names have no odd characters
newest=$(ls -t "$LOGDIR"/*.iolens 2>/dev/null | head -n 1)
set -- "$LOGDIR"/*_dd_*.iolens
dd_log=$1
if [ -z "$newest" ] || [ ! -e "$dd_log" ]; then
    echo "build-and-demo: the traced programs wrote no log to $LOGDIR" >&2
    exit 1
fi

step "What dd did (iolens-parser --total $(basename "$dd_log"))"
"$PARSER" --total "$dd_log" | grep -E '^total_POSIX_(OPENS|WRITES|BYTES_WRITTEN):'

step "Files touched by cp (iolens-parser --file, mount lines left out)"
"$PARSER" --file "$newest" | grep -v '^# mount:'

step "Totals for cp (a selection of iolens-parser --total)"
"$PARSER" --total "$newest" |
    grep -E '^total_POSIX_(OPENS|READS|WRITES|BYTES_READ|BYTES_WRITTEN|CONSEC_WRITES|ACCESS1_ACCESS|ACCESS1_COUNT|F_READ_TIME|F_WRITE_TIME|F_META_TIME):'

step "Done"
echo "Newest log:      $newest"
echo "All counters:    $PARSER $newest"
echo "Trace your own:  IOLENS_NONMPI=1 LD_PRELOAD=$LIB <program> [args]"
