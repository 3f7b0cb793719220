# Helpers of the Python MPI tests (test_mpi4py.sh, test_h5py_mpio.sh);
# sourced after tests/integration/common.sh and tests/mpi/mpiio_common.sh.
#
#   python_mpi_setup MODULE...
#                        skip unless the build's library is for Open MPI
#                        (Debian builds mpi4py and parallel h5py with it)
#                        and /usr/bin/python3 imports each MODULE
#   run_python N NAME PROGRAM ARG...
#                        run `python3 PROGRAM ARG...` on N ranks, untraced
#                        when NAME is "plain", else under LD_PRELOAD as an
#                        MPI job; its stdout, stderr and status in
#                        $T/NAME.out, .err, .rc; logs in $T/NAME/logs

python_mpi_setup() {
    iolens_setup
    if [ -z "${IOLENS_MPIEXEC:-}" ]; then
        echo "SKIP: IOLENS_MPIEXEC is not set (needs mpiexec, run through make check)"
        exit 77
    fi
    if [ "$(mpi_flavour)" != openmpi ]; then
        echo "SKIP: this build's library is for $(mpi_flavour); Debian's mpi4py and h5py-mpi use Open MPI (the --with-mpi=openmpi stage runs this)"
        exit 77
    fi
    unset LD_PRELOAD
    PYTHON=/usr/bin/python3
    for module in "$@"; do
        if ! "$PYTHON" -c "import $module" >/dev/null 2>&1; then
            echo "SKIP: $PYTHON has no $module"
            exit 77
        fi
    done
}

run_python() {
    rp_n=$1
    rp_name=$2
    shift 2
    mkdir -p "$T/$rp_name/logs" "$T/$rp_name/data"
    if [ "$rp_name" = plain ]; then
        mpi_run -n "$rp_n" "$PYTHON" "$@" >"$T/$rp_name.out" 2>"$T/$rp_name.err"
    else
        mpi_run -n "$rp_n" -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$T/$rp_name/logs" \
            "$PYTHON" "$@" >"$T/$rp_name.out" 2>"$T/$rp_name.err"
    fi
    echo "$?" >"$T/$rp_name.rc"
}
