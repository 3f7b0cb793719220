#!/bin/sh
# configure refuses an MPI that does not match --with-mpi (issue 19):
# the other MPI's compiler wrapper as CC, the other MPI's mpi.h through
# MPI_CFLAGS, and an unknown --with-mpi value each stop configure with
# one error naming the mismatch, and leave no Makefile behind.  The MPI
# checks come right after the compiler's, so each refusal takes seconds.
. "$(dirname "$0")/../integration/common.sh"
for tool in mpicc.mpich mpicc.openmpi pkg-config; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: no $tool"; exit 77; }
done
pkg-config --exists mpich ompi-c || { echo "SKIP: pkg-config lacks mpich or ompi-c"; exit 77; }
CONFIGURE=${IOLENS_SRCDIR:?run through make check}/configure
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

# refused NAME EXPECTED-ERROR CONFIGURE-ARGS...: configure in a fresh
# directory must fail with exactly that last line on stderr.
refused() {
    name=$1 want=$2
    shift 2
    mkdir "$T/$name"
    (cd "$T/$name" && "$CONFIGURE" -q "$@") >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    check_eq 1 "$rc" "$name: configure's exit status"
    check_eq "configure: error: $want" "$(tail -n 1 "$T/$name.err")" "$name: the error"
    check_eq no "$([ -e "$T/$name/Makefile" ] && echo yes || echo no)" "$name: a Makefile left behind"
}

refused openmpi-cc-for-mpich \
    "CC=mpicc.openmpi compiles for openmpi, not mpich (--with-mpi=mpich): use CC=gcc, or the matching --with-mpi" \
    --with-mpi=mpich CC=mpicc.openmpi
refused mpich-cc-for-openmpi \
    "CC=mpicc.mpich compiles for mpich, not openmpi (--with-mpi=openmpi): use CC=gcc, or the matching --with-mpi" \
    --with-mpi=openmpi CC=mpicc.mpich
# MPI_CFLAGS overrides pkg-config's: Open MPI's headers for an MPICH build.
refused openmpi-header-for-mpich \
    "mpi.h is openmpi, not mpich (--with-mpi=mpich): check CC, CPPFLAGS and MPI_CFLAGS" \
    --with-mpi=mpich MPI_CFLAGS="$(pkg-config --cflags ompi-c)" MPI_LIBS=" "
refused unknown-mpi "--with-mpi=lam: say mpich, openmpi or no" --with-mpi=lam
finish
