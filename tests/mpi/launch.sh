# The tests' one way to start an MPI job, under MPICH's Hydra or Open MPI's
# mpiexec alike; sourced by tests/integration/common.sh.
#
#   mpi_flavour          print "mpich" or "openmpi": the MPI of the build
#                        ($IOLENS_MPI_FLAVOUR from make check; without it,
#                        what $IOLENS_MPIEXEC says it is; MPICH by default)
#   mpi_run [OPTION]... -n N [-genv VAR VALUE]... PROGRAM [ARG]...
#                        run PROGRAM with $IOLENS_MPIEXEC.  Under Open MPI
#                        each -genv becomes -x VAR=VALUE (the value without
#                        blanks), and the job may run as root and put more
#                        ranks than cores on this machine; MPICH's command
#                        line is passed as it is.
#   mpi_strip_banners FILE
#                        remove the launcher's own notices from FILE (a job's
#                        stderr): Open MPI frames each in lines of dashes
#                        (a rank's non-zero status, an abort); MPICH's
#                        Hydra adds none, and FILE is left as it is
#
# Every launch goes through mpi_run, so the Open MPI stage of
# scripts/run-tests.sh runs the same tests with the same assertions.

mpi_flavour() {
    if [ -z "${IOLENS_MPI_FLAVOUR:-}" ]; then
        # Asked untraced: a caller's LD_PRELOAD or LD_DEBUG is for the job.
        case $(env -u LD_PRELOAD -u LD_DEBUG "${IOLENS_MPIEXEC:-mpiexec.hydra}" --version 2>/dev/null) in
            *OpenRTE* | *"Open MPI"* | *PRRTE*) IOLENS_MPI_FLAVOUR=openmpi ;;
            *) IOLENS_MPI_FLAVOUR=mpich ;;
        esac
    fi
    echo "$IOLENS_MPI_FLAVOUR"
}

mpi_run() {
    if [ "$(mpi_flavour)" != openmpi ]; then
        "$IOLENS_MPIEXEC" "$@"
        return
    fi
    # Rebuild the argument list in place: the launcher's options up to the
    # program, -genv pairs turned into -x VAR=VALUE; the program and its
    # arguments unchanged.
    mr_left=$#
    mr_in_options=1
    while [ "$mr_left" -gt 0 ]; do
        if [ "$mr_in_options" = 1 ] && [ "$1" = -genv ] && [ "$mr_left" -ge 3 ]; then
            mr_word="$2=$3"
            shift 3
            mr_left=$((mr_left - 3))
            set -- "$@" -x "$mr_word"
            continue
        fi
        if [ "$mr_in_options" = 1 ] && { [ "$1" = -n ] || [ "$1" = -np ]; } && [ "$mr_left" -ge 2 ]; then
            mr_word=$2
            shift 2
            mr_left=$((mr_left - 2))
            set -- "$@" -n "$mr_word"
            continue
        fi
        case $1 in
            -*) ;;
            *) mr_in_options=0 ;;
        esac
        mr_word=$1
        shift
        mr_left=$((mr_left - 1))
        set -- "$@" "$mr_word"
    done
    # Open MPI refuses root unless told twice, and more ranks than cores
    # (the tests run 4 ranks on 2) unless told to oversubscribe.  Its
    # session directory goes under the test's own directory: jobs of
    # tests running side by side shared /tmp/ompi.HOST.UID, and one
    # job's clean-up removed it under another's launcher
    # (ORTE_ERROR_LOG in session_dir.c).
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        OMPI_MCA_rmaps_base_oversubscribe=1 \
        OMPI_MCA_orte_tmpdir_base="${T:-${TMPDIR:-/tmp}}" "$IOLENS_MPIEXEC" "$@"
}

mpi_strip_banners() {
    [ "$(mpi_flavour)" = openmpi ] || return 0
    awk 'length($0) >= 20 && $0 ~ /^-+$/ { framed = !framed; next } !framed' "$1" >"$1.app" &&
        mv "$1.app" "$1"
}
