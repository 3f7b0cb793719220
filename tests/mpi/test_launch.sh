#!/bin/sh
# The tests' launcher helper (tests/mpi/launch.sh) with a stand-in
# launcher that prints its arguments and environment: under MPICH the
# command line is passed unchanged; under Open MPI each -genv VAR VALUE
# before the program becomes -x VAR=VALUE, -np becomes -n, the run-as-root
# and oversubscribe settings are in the launcher's environment, and the
# program's own arguments (a -genv among them) are left alone; Open MPI's
# dash-framed notices are taken out of a job's stderr, MPICH's is kept.
. "$(dirname "$0")/../integration/common.sh"
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

cat >"$T/launcher" <<'END'
#!/bin/sh
case ${1:-} in
    --version) echo "${FAKE_VERSION:-}"; exit 0 ;;
esac
for a in "$@"; do printf '[%s]' "$a"; done
echo
echo "root=${OMPI_ALLOW_RUN_AS_ROOT:-} confirm=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-} oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-} extra=${EXTRA:-}"
exit 7
END
chmod +x "$T/launcher"
IOLENS_MPIEXEC=$T/launcher

launch() {
    EXTRA=e mpi_run -np 4 -genv LD_PRELOAD /x/lib.so -genv IOLENS_LOGDIR "/d/a b" --flag \
        prog -genv A "1 2" >"$T/out"
    echo "status $?" >>"$T/out"
}

IOLENS_MPI_FLAVOUR=mpich
launch
check_eq "[-np][4][-genv][LD_PRELOAD][/x/lib.so][-genv][IOLENS_LOGDIR][/d/a b][--flag][prog][-genv][A][1 2]
root= confirm= oversubscribe= extra=e
status 7" "$(cat "$T/out")" "MPICH: the command line as given"

IOLENS_MPI_FLAVOUR=openmpi
launch
check_eq "[-n][4][-x][LD_PRELOAD=/x/lib.so][-x][IOLENS_LOGDIR=/d/a b][--flag][prog][-genv][A][1 2]
root=1 confirm=1 oversubscribe=1 extra=e
status 7" "$(cat "$T/out")" "Open MPI: -x VAR=VALUE, its settings, the program's arguments unchanged"
check_eq "" "${OMPI_ALLOW_RUN_AS_ROOT:-}" "the settings stay out of the test's own environment"

# The launcher's notices, framed in dashes by Open MPI, leave a job's
# stderr; the application's lines stay, dashes of its own included.
printf '%s\n' "iolens: one line" "------------------------------------" \
    "Primary job  terminated normally, but 1 process returned" \
    "------------------------------------" "app: ---" "--" >"$T/err"
cp "$T/err" "$T/err.orig"
IOLENS_MPI_FLAVOUR=openmpi
mpi_strip_banners "$T/err"
check_eq "iolens: one line
app: ---
--" "$(cat "$T/err")" "Open MPI: stderr without the launcher's notice"
cp "$T/err.orig" "$T/err"
IOLENS_MPI_FLAVOUR=mpich
mpi_strip_banners "$T/err"
check_eq "$(cat "$T/err.orig")" "$(cat "$T/err")" "MPICH: stderr as it was"

# Without IOLENS_MPI_FLAVOUR, the launcher says which it is.
IOLENS_MPI_FLAVOUR=
check_eq openmpi "$(FAKE_VERSION='mpiexec (OpenRTE) 4.1.4' mpi_flavour)" "flavour of OpenRTE's mpiexec"
IOLENS_MPI_FLAVOUR=
check_eq mpich "$(FAKE_VERSION='HYDRA build details:' mpi_flavour)" "flavour of Hydra"
finish
