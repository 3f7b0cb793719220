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
# python3-h5py-serial.
# Open MPI beside MPICH (the second stage of scripts/run-tests.sh):
# openmpi-bin, libopenmpi-dev and libhdf5-openmpi-dev; python3-mpi4py and
# python3-h5py-mpi (Debian builds both with Open MPI) for the Python MPI
# tests.  gfortran: a Fortran MPI program (tests/mpi/test_fortran.sh)
# through each MPI's mpif90.  libdw-dev: the tools resolve call
# sites to function and source line.  python3-netcdf4 and netcdf-bin
# (ncdump, nccopy): netCDF-4 files traced (tests/hdf5/test_netcdf.sh).
# Installing Open MPI switches the system's MPI alternatives (mpicc,
# mpiexec, h5pcc, hdf5.pc, the mpi.h directory) to it: they are recorded
# before and set back after, so the machine's default MPI stays the one
# it had.  The scripts never rely on them: they name mpicc.mpich,
# mpiexec.hydra, mpicc.openmpi, mpiexec.openmpi.
set -eu

PACKAGES="build-essential autoconf automake libtool pkg-config zlib1g-dev libbz2-dev
libxxhash-dev check libsubunit-dev mpich libmpich-dev libhdf5-mpich-dev python3
clang libclang-rt-14-dev
libsqlite3-dev sqlite3
tar gzip git make
hdf5-tools
chromium
strace fio python3-h5py-serial
openmpi-bin libopenmpi-dev libhdf5-openmpi-dev python3-mpi4py python3-h5py-mpi
gfortran
libdw-dev
python3-netcdf4 netcdf-bin"

# The alternatives an MPI or parallel HDF5 package switches when installed.
MPI_ALTERNATIVES="mpi mpirun mpi-x86_64-linux-gnu h5pcc hdf5.pc"

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

# "NAME MODE VALUE" lines (update-alternatives --get-selections) of the
# MPI alternatives that exist now.
mpi_selections() {
    update-alternatives --get-selections 2>/dev/null |
        awk -v names=" $MPI_ALTERNATIVES " 'index(names, " " $1 " ") > 0'
}

# Sets each alternative of the saved lines back: the same value in manual
# mode, automatic mode where it was automatic.  An alternative that did
# not exist before is left as the installation made it.
restore_selections() {
    echo "$1" | while read -r name mode value; do
        [ -n "$name" ] || continue
        if [ "$mode" = auto ]; then
            $SUDO update-alternatives --auto "$name"
        else
            $SUDO update-alternatives --set "$name" "$value"
        fi
    done
}

echo "install-deps: installing:$missing"
before=$(mpi_selections)
export DEBIAN_FRONTEND=noninteractive
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update
# shellcheck disable=SC2086  # word splitting of the package list is intended
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
if [ "$(mpi_selections)" != "$before" ]; then
    echo "install-deps: setting the MPI alternatives back:"
    echo "$before" | sed 's/^/  /'
    restore_selections "$before"
fi
