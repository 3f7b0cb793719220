#!/bin/sh
# Installs the Debian 12 packages iolens needs to build and test, but only
# those that are missing: a machine that has them all is left untouched.
# clang and libclang-rt-14-dev: libFuzzer, for tests/fuzz/run-fuzz.sh.
# libbz2-dev: the tools read bzip2-compressed Darshan logs.
# libsqlite3-dev: iolens-export --sqlite; sqlite3 (the CLI): its tests.
# hdf5-tools: h5dump and h5ls, which check iolens-export --hdf5's files.
# tests/transparency (real programs traced): tar, gzip, git, make, python3,
# sqlite3 and hdf5-tools (h5dump, h5import).
# chromium: renders iolens-report's page headless (test_report_html.sh).
# tests/oracle (real programs checked against strace): strace, fio and
# python3-h5py-serial (by that name: the -mpi flavour, python3-mpi4py and
# libpnetcdf-dev would pull in Open MPI).
set -eu

PACKAGES="build-essential autoconf automake libtool pkg-config zlib1g-dev libbz2-dev
libxxhash-dev check libsubunit-dev mpich libmpich-dev libhdf5-mpich-dev python3
clang libclang-rt-14-dev
libsqlite3-dev sqlite3
tar gzip git make
hdf5-tools
chromium
strace fio python3-h5py-serial"

missing=""
for pkg in $PACKAGES; do
    # dpkg -s also succeeds for removed-but-configured packages: check the status line.
    if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
        missing="$missing $pkg"
    fi
done

if [ -z "$missing" ]; then
    echo "install-deps: all Debian packages present"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-deps: missing packages:$missing; run as root or install sudo" >&2
    exit 1
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update
# shellcheck disable=SC2086  # word splitting of the package list is intended
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
