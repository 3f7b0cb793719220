# Shared helpers of the integration tests; sourced by test_*.sh.
#
# make check sets IOLENS_LIB (the runtime), IOLENS_PARSER, IOLENS_TESTBIN
# (build dir/tests) and IOLENS_SRCDIR.  A script exits 0 when every check
# passed, 1 when one failed, 77 when it cannot run here (skip).
#
#   iolens_setup               check the environment, make $T (a fresh
#                              temporary directory, removed at exit)
#   run_traced LOG [VAR=VALUE...] CMD...
#                              run CMD traced (with the extra environment),
#                              the log going to LOG
#   require_log LOG            the log exists and parses (else the test ends)
#   expect_counters LOG FILE   read "COUNTER VALUE" lines on stdin and
#                              check each against the record of FILE
#   counter LOG FILE COUNTER   print a counter of FILE's record
#   total LOG COUNTER          print total_COUNTER from --total
#   header LOG NAME            print the value of the "# NAME: value" line
#   check_eq EXPECTED ACTUAL WHAT, check_le A B WHAT (numbers, may be real)
#   fail WHAT                  record a failed check
#   finish                     exit with the verdict
#   python_interpreter         the path of python3's interpreter itself
#                              (not a wrapper script that execs it, as
#                              pyenv's shims do), empty if there is none
#   run_alone                  for a test whose checks are timings: wait
#                              until no other test script runs, and keep
#                              the others waiting until this one ends

set -u

# make -j4 check runs several tests at a time on a 2-CPU machine (and
# scripts/run-tests.sh runs several builds' tests at once), and a test that
# times I/O (BPS unions, the benchmark comparison) measures its neighbours
# as much as itself.  Every test script holds a shared lock on one file
# for its lifetime (inherited by the processes it starts); run_alone turns
# it into an exclusive one.  The file is IOLENS_TEST_LOCK if set (one for
# every build of a run-tests.sh run), else .test-lock in the build
# directory.
# A shared lock is granted whenever no exclusive one is held, so a test
# waiting for the exclusive lock would wait as long as new tests kept
# starting.  A second file, the gate (the lock's name + ".gate"), makes
# the waiting test come first: a test takes the gate for the moment it
# takes its shared lock, and run_alone holds it from before it asks for
# the exclusive lock until it ends.  Both files are always taken gate
# first, and run_alone lets go of its shared lock before it waits at the
# gate, so two run_alone tests cannot hold each other up.
# Waits are bounded, so a stray process holding a lock delays a test but
# never hangs it.
TEST_LOCK_WAIT=600
test_lock=${IOLENS_TEST_LOCK:-${IOLENS_BUILDDIR:-}/.test-lock}
if [ -n "${IOLENS_BUILDDIR:-}" ] && [ -w "$(dirname "$test_lock")" ] && command -v flock >/dev/null 2>&1; then
    exec 8>>"$test_lock.gate" 9>>"$test_lock"
    flock -x -w "$TEST_LOCK_WAIT" 8 || true
    flock -s -w "$TEST_LOCK_WAIT" 9 || true
    flock -u 8
    exec 8>&-
fi

run_alone() {
    if { true >&9; } 2>/dev/null; then
        flock -u 9
        exec 8>>"$test_lock.gate"
        flock -x -w "$TEST_LOCK_WAIT" 8 || echo "note: waited at the test gate too long"
        flock -x -w "$TEST_LOCK_WAIT" 9 || echo "note: ran beside another test (lock wait timed out)"
    fi
}

checks=0
failures=0

# The IOLENS_* variables a user may have set must not leak into the runs.
unset IOLENS_DISABLE IOLENS_DISABLE_LAYERS IOLENS_EXCLUDE IOLENS_INCLUDE IOLENS_MEMORY \
    IOLENS_MEM_ALIGNMENT IOLENS_LOGDIR IOLENS_LOGFILE IOLENS_NONMPI IOLENS_LOG_MODE \
    IOLENS_MAX_LOG_SIZE

iolens_setup() {
    for var in IOLENS_LIB IOLENS_PARSER IOLENS_TESTBIN; do
        eval "value=\${$var:-}"
        if [ -z "$value" ]; then
            echo "SKIP: $var is not set (run the integration tests through make check)"
            exit 77
        fi
    done
    if [ ! -r "$IOLENS_LIB" ]; then
        echo "FAIL: the runtime library $IOLENS_LIB does not exist"
        exit 1
    fi
    if [ ! -x "$IOLENS_PARSER" ]; then
        echo "FAIL: the parser $IOLENS_PARSER does not exist"
        exit 1
    fi
    # make check-tsan: the sanitizer's runtime must be loaded before the
    # instrumented iolens runtime (LD_PRELOAD takes a blank-separated list).
    if [ -n "${IOLENS_PRELOAD_FIRST:-}" ]; then
        IOLENS_LIB="$IOLENS_PRELOAD_FIRST $IOLENS_LIB"
    fi
    PROGS=$IOLENS_TESTBIN/integration
    # Under /tmp on purpose: $TMPDIR might point below an excluded prefix
    # (/dev/shm) or the default log directory, which are never traced.
    T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
    trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
}

# A log already at $1 is removed first: iolens never replaces a file, it
# would put this run's log beside it (iolens(7), LOG SAFETY).
run_traced() {
    log=$1
    shift
    rm -f -- "$log"
    env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" "$@"
}

python_interpreter() {
    python3 -c 'import sys; print(sys.executable)' 2>/dev/null || true
}

fail() {
    checks=$((checks + 1))
    failures=$((failures + 1))
    echo "FAIL: $*"
}

pass() {
    checks=$((checks + 1))
}

check_eq() {
    if [ "$1" = "$2" ]; then
        pass
    else
        fail "$3: expected '$1', got '$2'"
    fi
}

check_le() {
    if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; then
        pass
    else
        fail "$3: expected $1 <= $2"
    fi
}

check_gt() {
    if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; then
        pass
    else
        fail "$3: expected $1 > $2"
    fi
}

# The parser's output of LOG, made by require_log (LOG.base, LOG.total).
base_of() {
    cat "$1.base"
}

# Raw (inflated) sizes of LOG's regions of region kind KIND (16 POSIX,
# 3 NAMES: log_format.h), one a line in table order, read from the region
# table: a 40-byte header whose region_count is at byte 28, then 40-byte
# descriptors with the kind at byte 0 and raw_size (uint64) at byte 24.
region_sizes() {
    rs_count=$(od -An -t u4 -j 28 -N 4 "$1" | tr -d ' ')
    od -An -v -t u4 -j 40 -N $((rs_count * 40)) -w40 "$1" |
        awk -v k="$2" '$1 == k { print $7 + $8 * 4294967296 }'
}

# Value of COUNTER in FILE's record; "<none>" if there is no such line,
# several values (one per line) if there are several records.
counter() {
    base_of "$1" | awk -F'\t' -v f="$2" -v c="$3" '
        $1 !~ /^#/ && $6 == f && $4 == c { print $5; n++ }
        END { if (n == 0) print "<none>" }'
}

# Number of records (of any layer, or of LAYER) that FILE has.
records_of() {
    base_of "$1" | awk -F'\t' -v f="$2" -v l="${3:-}" '
        $1 !~ /^#/ && $6 == f && (l == "" || $1 == l) { ids[$1 " " $3] = 1 }
        END { n = 0; for (i in ids) n++; print n }'
}

total() {
    awk -v c="total_$2:" '
        $1 == c { print $2; n++ } END { if (n == 0) print "<none>" }' "$1.total"
}

header() {
    base_of "$1" | awk -v k="# $2:" '
        index($0, k) == 1 { print substr($0, length(k) + 2); n++ }
        END { if (n == 0) print "<none>" }'
}

# What an strace -f -y log STRACE shows of each path under PREFIX: one
# line PATH OPENS READS BYTES_READ (opens by open, openat or creat; -y
# names the descriptor an open returned and a read used), for every path
# opened.
strace_io_by_path() {
    awk -v r="$2" '
        /^[0-9]+ +(openat|open|creat)\(/ && match($0, /= [0-9]+<[^>]*>$/) {
            p = substr($0, RSTART, RLENGTH); sub(/^= [0-9]+</, "", p); sub(/>$/, "", p)
            if (index(p, r) == 1) opens[p]++ }
        /^[0-9]+ +read\([0-9]+</ {
            if (match($0, /<[^>]*>/)) { p = substr($0, RSTART + 1, RLENGTH - 2)
                if (index(p, r) == 1 && match($0, /= [0-9]+$/)) {
                    reads[p]++; got[p] += substr($0, RSTART + 2) } } }
        END { for (p in opens) printf "%s %d %d %d\n", p, opens[p], reads[p], got[p] }' "$1"
}

# Reads "COUNTER VALUE" lines (blank lines and #-comments skipped).
expect_counters() {
    log=$1
    file=$2
    while read -r name value; do
        case $name in '' | '#'*) continue ;; esac
        check_eq "$value" "$(counter "$log" "$file" "$name")" "$name of $file"
    done
}

# The log must exist and parse; without it every counter check would be
# meaningless, so the test ends here.  Keeps the parser's output.
require_log() {
    if [ ! -s "$1" ]; then
        fail "no log was written at $1"
        finish
    fi
    for mode in base total; do
        if ! "$IOLENS_PARSER" --$mode "$1" >"$1.$mode" 2>"$1.err"; then
            fail "iolens-parser --$mode $1: $(cat "$1.err")"
            finish
        fi
    done
    pass
}

# Block size the runtime uses as the file alignment of files under DIR.
fs_block_size() {
    stat -f -c %s "$1"
}

# How many of the given offsets are not multiples of ALIGNMENT.
misaligned_count() {
    alignment=$1
    shift
    echo "$@" | awk -v a="$alignment" '{
        n = 0
        for (i = 1; i <= NF; i++) if (a > 0 && $i % a != 0) n++
        print n
    }'
}

finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$failures of $checks checks failed"
        exit 1
    fi
    echo "PASS: $checks checks"
    exit 0
}

# mpi_run, mpi_flavour: starting MPI jobs under MPICH or Open MPI.
. "$(dirname "$0")/../mpi/launch.sh"
