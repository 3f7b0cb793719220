#!/bin/sh
# The runtime built for one MPI (configure --with-mpi; IOLENS_MPI_FLAVOUR):
#   - it refers to no MPI symbol at link time, so that programs without
#     MPI run under it (Open MPI's handles are link-time variables);
#   - in a program of its own MPI, MPI-IO bytes are exact (blocking and
#     nonblocking: Open MPI's requests are pointers) and the POSIX
#     records are the program's files only: the MPI's own files (Open
#     MPI's session directory, its *.locktest.N files) are not traced,
#     and they are there, as IOLENS_EXCLUDE without that rule shows;
#   - in a program of the OTHER MPI (when installed), MPI_Init refuses it
#     in one line, the program runs and ends as untraced, and each process
#     leaves a log of its POSIX I/O;
#   - built for Open MPI, a program linked with pkg-config iolens-openmpi
#     (Open MPI's mpicc has no -profile) is traced without LD_PRELOAD.
# Every launcher is named explicitly (mpiexec.hydra, mpiexec.openmpi).
. "$(dirname "$0")/../integration/common.sh"
iolens_setup
for var in IOLENS_MPICC IOLENS_MPIEXEC IOLENS_SRCDIR IOLENS_BUILDDIR IOLENS_MPI_FLAVOUR; do
    eval "value=\${$var:-}"
    if [ -z "$value" ]; then
        echo "SKIP: $var is not set (needs an MPI build, run through make check)"
        exit 77
    fi
done
unset LD_PRELOAD
N=1000
SRC=$IOLENS_SRCDIR/tests/mpi/flavour_prog.c

case $IOLENS_MPI_FLAVOUR in
mpich) BUILT="MPICH" OTHER=openmpi OTHER_NAME="Open MPI" OTHER_CC=mpicc.openmpi ;;
openmpi) BUILT="Open MPI" OTHER=mpich OTHER_NAME="MPICH" OTHER_CC=mpicc.mpich ;;
*) echo "SKIP: IOLENS_MPI_FLAVOUR=$IOLENS_MPI_FLAVOUR"; exit 77 ;;
esac

# run FLAVOUR MPIEXEC NRANKS OUTDIR [VAR=VALUE...] -- PROGRAM ARGS: runs the
# job with the variables set in every rank (values without blanks); its
# stdout, stderr and exit status go to OUTDIR/{stdout,stderr,status}.
run() {
    flavour=$1 mpiexec=$2 nranks=$3 outdir=$4
    shift 4
    envargs=
    while [ "$1" != "--" ]; do
        case $flavour in
        mpich) envargs="$envargs -genv ${1%%=*} ${1#*=}" ;;
        openmpi) envargs="$envargs -x $1" ;;
        esac
        shift
    done
    shift
    extra=
    [ "$flavour" = openmpi ] && extra="--allow-run-as-root --oversubscribe"
    mkdir -p "$outdir"
    # shellcheck disable=SC2086 # the option lists are split on purpose
    timeout 300 "$mpiexec" $extra -n "$nranks" $envargs "$@" \
        >"$outdir/stdout" 2>"$outdir/stderr"
    echo $? >"$outdir/status"
}

# The distinct files of LOG's records of LAYER, sorted, one a line.
files_of() {
    base_of "$1" | awk -F'\t' -v l="$2" '$1 == l { print $6 }' | sort -u
}

# --------------------------------------------------- no MPI at link time --
undefined=$(nm -D --undefined-only "$IOLENS_LIB" | awk '{ print $NF }' |
    grep -E '^(ompi_|opal_|MPI_|PMPI_|MPIR_|mpi_)' | tr '\n' ' ')
check_eq "" "$undefined" "MPI symbols the library needs at link time"
for prog in /bin/true /bin/cat; do
    out=$(echo hello | LD_BIND_NOW=1 LD_PRELOAD="$IOLENS_LIB" "$prog" 2>"$T/err")
    check_eq 0 "$?" "exit status of $prog under the preload (LD_BIND_NOW=1)"
    check_eq "" "$(cat "$T/err")" "stderr of $prog under the preload"
    [ "$prog" = /bin/cat ] && check_eq hello "$out" "what cat printed under the preload"
done

# ------------------------------------------------- a program of our MPI --
if ! "$IOLENS_MPICC" -Wall -Wextra -Werror "$SRC" -o "$T/own_prog"; then
    fail "compiling tests/mpi/flavour_prog.c with $IOLENS_MPICC"
    finish
fi
# own_run NAME [VAR=VALUE...]: 2 ranks writing into $T/NAME/data.
own_run() {
    name=$1
    shift
    mkdir -p "$T/$name/data" "$T/$name/logs"
    run "$IOLENS_MPI_FLAVOUR" "$IOLENS_MPIEXEC" 2 "$T/$name" LD_PRELOAD="$IOLENS_LIB" \
        IOLENS_LOGDIR="$T/$name/logs" "$@" -- "$T/own_prog" "$T/$name/data" $N 0
    check_eq 0 "$(cat "$T/$name/status")" "exit status ($name)"
    check_eq 1 "$(find "$T/$name/logs" -name '*.iolens' | wc -l | tr -d ' ')" "logs ($name)"
    LOG=$(find "$T/$name/logs" -name '*.iolens' | head -n 1)
    require_log "$LOG"
}
own_run own
D=$T/own/data
check_eq "" "$(grep '^iolens:' "$T/own/stderr")" "iolens lines on stderr (own MPI)"
check_eq 2 "$(header "$LOG" nprocs)" "nprocs (own MPI)"
check_eq "$(printf '%s\n' "$D/out.0" "$D/out.1" "$D/shared")" "$(files_of "$LOG" POSIX)" \
    "files of the POSIX records (own MPI): the program's only"
# POSIX sees both halves: both MPIs write the nonblocking half with the
# C library's aio_write, whose own pwrite no wrapper sees; it counts at
# aio_return (wrappers/aio.c).
expect_counters "$LOG" "$D/shared" <<END
MPIIO_BYTES_WRITTEN $((4 * N))
MPIIO_INDEP_WRITES 2
MPIIO_NB_WRITES 2
POSIX_BYTES_WRITTEN $((4 * N))
END
check_eq "$N" "$(counter "$LOG" "$D/out.0" POSIX_BYTES_WRITTEN)" "POSIX bytes of out.0"
check_eq "$N" "$(counter "$LOG" "$D/out.1" POSIX_BYTES_WRITTEN)" "POSIX bytes of out.1"

# The same job with the default prefixes only (IOLENS_EXCLUDE replaces the
# whole default, the MPI's own files included): Open MPI's own files are
# there; MPICH (4.0) has none outside /dev/shm for this program (it uses
# no shared file pointer).
own_run noexclusion IOLENS_EXCLUDE=/proc,/sys,/dev,/etc,/usr,/lib,/lib64,/bin,/sbin,/boot,/run
D=$T/noexclusion/data
mpi_own=$(files_of "$LOG" POSIX | grep -v -x -e "$D/out.0" -e "$D/out.1" -e "$D/shared")
case $IOLENS_MPI_FLAVOUR in
openmpi)
    check_eq 2 "$(echo "$mpi_own" | grep -c "^$D/shared\.locktest\.[01]\$")" \
        "Open MPI's lock-test files, traced without the MPI rule"
    check_gt "$(echo "$mpi_own" | grep -c '/ompi\.[^/]*\.[0-9][0-9]*/')" 0 \
        "Open MPI's session-directory files, traced without the MPI rule"
    ;;
mpich) check_eq "" "$mpi_own" "MPICH's own files outside /dev/shm" ;;
esac

# ------------------------------------------- a program of the other MPI --
other_exec=
case $OTHER in
mpich) other_exec=$(command -v mpiexec.hydra) ;;
openmpi) other_exec=$(command -v mpiexec.openmpi) ;;
esac
if [ -z "$other_exec" ] || ! command -v "$OTHER_CC" >/dev/null; then
    echo "note: $OTHER_NAME is not installed: the mismatch is not tried"
elif ! "$OTHER_CC" -Wall -Wextra -Werror "$SRC" -o "$T/other_prog"; then
    fail "compiling tests/mpi/flavour_prog.c with $OTHER_CC"
else
    mkdir -p "$T/untraced/data" "$T/mismatch/data" "$T/mismatch/logs"
    run "$OTHER" "$other_exec" 2 "$T/untraced" IOLENS_DISABLE=1 -- \
        "$T/other_prog" "$T/untraced/data" $N 3
    run "$OTHER" "$other_exec" 2 "$T/mismatch" LD_PRELOAD="$IOLENS_LIB" \
        IOLENS_LOGDIR="$T/mismatch/logs" -- "$T/other_prog" "$T/mismatch/data" $N 3
    D=$T/mismatch/data
    check_eq 3 "$(cat "$T/untraced/status")" "exit status of the untraced $OTHER_NAME job"
    check_eq 3 "$(cat "$T/mismatch/status")" "exit status of the $OTHER_NAME job under the $BUILT library"
    check_eq "$(sort "$T/untraced/stdout")" "$(sort "$T/mismatch/stdout")" \
        "what the $OTHER_NAME job printed, traced and untraced"
    check_eq 1 "$(grep -c '^iolens:' "$T/mismatch/stderr")" "iolens lines on stderr (mismatch)"
    check_eq 1 "$(grep -c "^iolens: built for $BUILT, but the program runs $OTHER_NAME.*: MPI-IO not traced, one POSIX/STDIO log per process (preload the libiolens built for this MPI)\$" "$T/mismatch/stderr")" \
        "the mismatch line: $(grep '^iolens:' "$T/mismatch/stderr")"
    check_eq $((4 * N)) "$(wc -c <"$D/shared" | tr -d ' ')" "bytes of the shared file (mismatch)"
    # One log per process, as for a program without MPI.
    nlogs=$(find "$T/mismatch/logs" -name '*.iolens' | wc -l | tr -d ' ')
    check_eq 2 "$nlogs" "logs (mismatch: one per process)"
    shared=0 outs=
    for LOG in $(find "$T/mismatch/logs" -name '*.iolens' | sort); do
        require_log "$LOG"
        check_eq 1 "$(header "$LOG" nprocs)" "nprocs of a per-process log (mismatch)"
        check_eq "" "$(files_of "$LOG" MPIIO)" "MPI-IO records (mismatch)"
        mine=$(files_of "$LOG" POSIX | grep -v -x "$D/shared")
        outs="$outs $mine"
        check_eq "$N" "$(counter "$LOG" "$mine" POSIX_BYTES_WRITTEN)" "POSIX bytes of $mine (mismatch)"
        shared=$((shared + $(counter "$LOG" "$D/shared" POSIX_BYTES_WRITTEN)))
    done
    check_eq " $D/out.0 $D/out.1" "$(echo "$outs" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" \
        "each rank's own file in its own log (mismatch)"
    check_eq $((4 * N)) "$shared" "POSIX bytes of the shared file over the logs (mismatch; aio_write's too)"
fi

# --------------------------------- Open MPI: linked with pkg-config -------
if [ "$IOLENS_MPI_FLAVOUR" = openmpi ]; then
    flags=$(PKG_CONFIG_PATH=$IOLENS_BUILDDIR pkg-config --libs iolens-openmpi)
    # shellcheck disable=SC2086 # the flags are split on purpose
    if ! "$IOLENS_MPICC" $flags -Wall -Wextra -Werror "$SRC" -o "$T/linked_prog"; then
        fail "linking with pkg-config --libs iolens-openmpi ($flags)"
    else
        check_eq "libiolens-openmpi.so" \
            "$(readelf -d "$T/linked_prog" | sed -n 's/.*NEEDED.*\[\(.*\)\].*/\1/p' | head -n 1)" \
            "first library the linked program needs"
        mkdir -p "$T/linked/data" "$T/linked/logs"
        run openmpi "$IOLENS_MPIEXEC" 2 "$T/linked" IOLENS_LOGDIR="$T/linked/logs" -- \
            "$T/linked_prog" "$T/linked/data" $N 0
        check_eq 0 "$(cat "$T/linked/status")" "exit status (linked, no LD_PRELOAD)"
        LOG=$(find "$T/linked/logs" -name '*.iolens' | head -n 1)
        require_log "${LOG:-$T/linked/logs/none}"
        check_eq 2 "$(header "$LOG" nprocs)" "nprocs (linked)"
        check_eq $((4 * N)) "$(counter "$LOG" "$T/linked/data/shared" MPIIO_BYTES_WRITTEN)" \
            "MPI-IO bytes (linked)"
    fi
fi
# ------------------------------ installed names, side by side ------------
# The runtime and the benchmark (an MPI program) are named after their MPI,
# so that installing both builds into one prefix replaces neither: the
# build's install-exec into a scratch DESTDIR, then its uninstall.
case $IOLENS_MPI_FLAVOUR in
mpich) want_lib=libiolens.so want_pio=iolens-pio-perf ;;
openmpi) want_lib=libiolens-openmpi.so want_pio=iolens-pio-perf-openmpi ;;
esac
root=$T/root
if ! make -s -C "$IOLENS_BUILDDIR" install-exec DESTDIR="$root" >"$T/install.out" 2>&1; then
    fail "make install-exec DESTDIR=$root: $(tail -n 5 "$T/install.out")"
else
    bin=$(find "$root" -type d -name bin | head -n 1)
    check_eq yes "$([ -x "$bin/$want_pio" ] && echo yes || echo no)" "$want_pio installed"
    check_eq "" "$(cd "$bin" && ls | grep '^iolens-pio-perf' | grep -v -x "$want_pio")"         "other names of the benchmark installed"
    check_eq "$want_lib" "$(find "$root" -name 'libiolens*.so' -type f -o -name 'libiolens*.so' -type l | \
        sed 's|.*/||' | sort -u | tr '\n' ' ' | sed 's/ $//')" "runtime library installed"
    make -s -C "$IOLENS_BUILDDIR" uninstall DESTDIR="$root" >"$T/uninstall.out" 2>&1 ||
        fail "make uninstall DESTDIR=$root: $(tail -n 5 "$T/uninstall.out")"
    check_eq "" "$(find "$root" -type f | sed "s|^$root||")" "files left after make uninstall"
fi
finish
