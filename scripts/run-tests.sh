#!/bin/sh
# Runs the whole iolens test suite, as CI does (.ci/run calls only this):
#   1. a fresh build in _build-test and `make check` (unit, parser and
#      LD_PRELOAD integration tests);
#   2. a fresh build for Open MPI (configure --with-mpi=openmpi) in
#      _build-openmpi and `make check-openmpi`: the MPI, HDF5 and Python
#      MPI tests (OPENMPI_TESTS in Makefile.am) against that library;
#   3. a fresh AddressSanitizer/UBSan build in _build-asan and
#      `make check-sanitize` (it builds only what the unit and parser
#      tests run, then runs them);
#   4. a fresh ThreadSanitizer build in _build-tsan and `make check-tsan`
#      (the threaded integration test, libtsan preloaded before the runtime,
#      and the streaming parser's test: it decodes on two threads);
#   5. `make distcheck` from _build-test: the tarball builds, installs
#      and uninstalls from a read-only source tree (no test runs there:
#      all of them ran in step 1 from the same files);
#      scripts/check-dist.sh then checks that the tarball holds every
#      file git tracks.
# Tests run one stage at a time.  The builds of stages 2 to 4 run while
# step 1's tests run, and distcheck while step 2's do, at the idle
# scheduling class (chrt --idle; nice 19 where that is refused): they take
# only the CPU time the tests leave, so tests that time I/O still have the
# machine to themselves, and the run takes the CPUs' time rather than the
# sum of its parts.  Their output goes to a file per build, shown when one
# fails.
# The last line printed is "N passed, N failed" for CI to read.  The exit
# status is nonzero if any stage failed.
set -eu

cd "$(dirname "$0")/.."
TOP=$PWD
TEST_BUILD=$TOP/_build-test
OMPI_BUILD=$TOP/_build-openmpi
ASAN_BUILD=$TOP/_build-asan
TSAN_BUILD=$TOP/_build-tsan
SAN_FLAGS='-fsanitize=address,undefined'

passed=0
failed=0
last_failures=0
status=0
recap=""

step() { printf '\n==> %s\n' "$*"; }

# Removes a build directory, including the read-only trees distcheck leaves.
fresh_dir() {
    if [ -d "$1" ]; then
        chmod -R u+w "$1"
        rm -rf "$1"
    fi
    mkdir -p "$1"
}

# Value of "# KEY: n" in an automake test-suite.log, 0 if absent.
log_count() {
    n=$(sed -n "s/^# $2: *\\([0-9][0-9]*\\)\$/\\1/p" "$1" | head -n 1)
    echo "${n:-0}"
}

# Adds a test-suite.log's results to the totals; sets last_failures to the
# failures it found (FAIL, ERROR and XPASS, as automake counts them) and
# last_counts to a short description.
count_results() {
    last_failures=0
    last_counts="no tests ran"
    if [ -f "$1" ]; then
        p=$(log_count "$1" PASS)
        last_failures=$(($(log_count "$1" FAIL) + $(log_count "$1" ERROR) + $(log_count "$1" XPASS)))
        passed=$((passed + p))
        failed=$((failed + last_failures))
        last_counts="$p passed, $last_failures failed, $(log_count "$1" SKIP) skipped"
    fi
}

# Remembers one line per stage for the recap at the end, with the
# seconds the stage took (since the previous note).
stage_start=$(date +%s)
run_start=$stage_start
note() {
    now=$(date +%s)
    recap="$recap$(printf '  %-16s %5ss  %s' "$1" "$((now - stage_start))" "$2")
"
    stage_start=$now
}

# Marks the run failed.  A stage that failed without any failing test (a
# configure or build error) still counts as one failure, so the summary
# never reads "0 failed" for a failed run.
stage_failed() {
    status=1
    if [ "$last_failures" -eq 0 ]; then
        failed=$((failed + 1))
    fi
}

show_log() {
    if [ -f "$1" ]; then
        step "Failures recorded in $1"
        cat "$1"
    fi
}

step "Checking Debian dependencies"
./scripts/install-deps.sh

step "Generating the build system (autoreconf -fi)"
autoreconf -fi

# ------------------------------------------------------ background work --
# Runs "$@" at the idle scheduling class, or at nice 19 where the idle
# class is refused.
idle() {
    if chrt --idle 0 true 2>/dev/null; then
        chrt --idle 0 "$@"
    else
        nice -n 19 "$@"
    fi
}

# ahead DIR LOG COMMAND...: COMMAND run at the idle class in a fresh DIR,
# its output in LOG; DIR/.ahead-status gets its exit status.
ahead() {
    dir=$1 log=$2
    shift 2
    fresh_dir "$dir"
    rc=0
    (cd "$dir" && idle "$@") >"$log" 2>&1 || rc=$?
    echo "$rc" >"$dir/.ahead-status"
}

# Waits for the ahead build of DIR; true if it succeeded, else shows its
# log (LOG).
ahead_ok() {
    while [ ! -f "$1/.ahead-status" ] && kill -0 "$ahead_pid" 2>/dev/null; do
        sleep 2
    done
    if [ "$(cat "$1/.ahead-status" 2>/dev/null)" = 0 ]; then
        return 0
    fi
    step "The build in $1 failed; the end of its output ($2):"
    tail -n 80 "$2"
    return 1
}

have_openmpi=0
if ./configure --help | grep -q -e '--with-mpi.*openmpi'; then
    have_openmpi=1
fi
SAN_CFLAGS="-O1 -g $SAN_FLAGS -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
AHEAD_LOGS=$TOP/_build-logs
fresh_dir "$AHEAD_LOGS"

# ------------------------------------------------------------- make check --
# The other stages' builds, one after another, in the background (from
# the start: configure leaves a CPU idle).  A status an earlier run left
# must not pass for this run's before the build gets to its directory.
rm -f "$OMPI_BUILD/.ahead-status" "$ASAN_BUILD/.ahead-status" "$TSAN_BUILD/.ahead-status"
(
    if [ "$have_openmpi" -eq 1 ]; then
        ahead "$OMPI_BUILD" "$AHEAD_LOGS/openmpi.log" \
            sh -c '"$0/configure" -q --with-mpi=openmpi && make -j2 build-openmpi' "$TOP"
    fi
    ahead "$ASAN_BUILD" "$AHEAD_LOGS/asan.log" \
        sh -c '"$0/configure" -q CFLAGS="$1" LDFLAGS="$2" && make -j2 build-sanitize' \
        "$TOP" "$SAN_CFLAGS" "$SAN_FLAGS"
    ahead "$TSAN_BUILD" "$AHEAD_LOGS/tsan.log" \
        sh -c '"$0/configure" -q CFLAGS="$1" LDFLAGS="$2" && make -j2 build-tsan' \
        "$TOP" "-O1 -g -fsanitize=thread" -fsanitize=thread
) &
ahead_pid=$!
step "Building in $TEST_BUILD and running make check"
fresh_dir "$TEST_BUILD"
check_ok=1
built=0
if (cd "$TEST_BUILD" && "$TOP/configure" -q && make -j2); then
    built=1
fi
# Four tests at a time on two CPUs: many tests wait (on strace, mpiexec,
# timeouts) more than they compute; those that time I/O take the build's
# test lock alone (run_alone, tests/integration/common.sh).
if [ "$built" -eq 1 ] && (cd "$TEST_BUILD" && make -j4 check); then
    count_results "$TEST_BUILD/test-suite.log"
    note "make check" "ok ($last_counts)"
else
    check_ok=0
    count_results "$TEST_BUILD/test-suite.log"
    stage_failed
    note "make check" "FAILED ($last_counts)"
    show_log "$TEST_BUILD/test-suite.log"
fi

# distcheck, in the background while the Open MPI tests run.  It runs
# no test (TESTS= check_PROGRAMS=): see the top of this file.
DISTCHECK_LOG=$TEST_BUILD/distcheck.log
distcheck_pid=
if [ "$check_ok" -eq 1 ]; then
    (
        rc=0
        (cd "$TEST_BUILD" && idle make -j2 distcheck TESTS= check_PROGRAMS=) >"$DISTCHECK_LOG" 2>&1 || rc=$?
        echo "$rc" >"$TEST_BUILD/.distcheck-status"
    ) &
    distcheck_pid=$!
fi

# ----------------------------------------------------------------- Open MPI --
# The same MPI tests, assertions and all, against the library built for
# Open MPI.  Open MPI is always installed beside MPICH (install-deps.sh).
step "Running make check-openmpi in $OMPI_BUILD"
if [ "$have_openmpi" -eq 0 ]; then
    note "check-openmpi" "skipped: this configure has no --with-mpi=openmpi"
elif ahead_ok "$OMPI_BUILD" "$AHEAD_LOGS/openmpi.log" &&
    (cd "$OMPI_BUILD" && make -j4 check-openmpi); then
    count_results "$OMPI_BUILD/test-suite.log"
    note "check-openmpi" "ok ($last_counts)"
else
    count_results "$OMPI_BUILD/test-suite.log"
    stage_failed
    note "check-openmpi" "FAILED ($last_counts)"
    show_log "$OMPI_BUILD/test-suite.log"
fi

# --------------------------------------------------------- sanitizer run --
step "Running make check-sanitize ($SAN_FLAGS) in $ASAN_BUILD"
if ahead_ok "$ASAN_BUILD" "$AHEAD_LOGS/asan.log" &&
    (cd "$ASAN_BUILD" &&
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 make -j2 check-sanitize); then
    count_results "$ASAN_BUILD/test-suite.log"
    note "check-sanitize" "ok ($last_counts)"
else
    count_results "$ASAN_BUILD/test-suite.log"
    stage_failed
    note "check-sanitize" "FAILED ($last_counts)"
    show_log "$ASAN_BUILD/test-suite.log"
fi

# ------------------------------------------------------- ThreadSanitizer --
step "Running make check-tsan (-fsanitize=thread) in $TSAN_BUILD"
if ahead_ok "$TSAN_BUILD" "$AHEAD_LOGS/tsan.log" && (cd "$TSAN_BUILD" && make -j2 check-tsan); then
    count_results "$TSAN_BUILD/test-suite.log"
    note "check-tsan" "ok ($last_counts)"
else
    count_results "$TSAN_BUILD/test-suite.log"
    stage_failed
    note "check-tsan" "FAILED ($last_counts)"
    show_log "$TSAN_BUILD/test-suite.log"
fi
wait "$ahead_pid" || true

# -------------------------------------------------------------- distcheck --
if [ -n "$distcheck_pid" ]; then
    step "make distcheck in $TEST_BUILD (output in $DISTCHECK_LOG)"
    wait "$distcheck_pid" || true
    if [ "$(cat "$TEST_BUILD/.distcheck-status" 2>/dev/null)" = 0 ] &&
        ./scripts/check-dist.sh "$TEST_BUILD"/iolens-*.tar.gz; then
        grep -E 'archives ready' "$DISTCHECK_LOG" || true
        note "make distcheck" "ok"
    else
        last_failures=0
        stage_failed
        note "make distcheck" "FAILED (see $DISTCHECK_LOG)"
        tail -n 60 "$DISTCHECK_LOG"
    fi
else
    note "make distcheck" "skipped: make check failed"
fi

step "Summary"
printf '%s' "$recap"
echo "  total            $(($(date +%s) - run_start))s"
if [ "$status" -eq 0 ]; then
    echo "run-tests: all stages passed"
else
    echo "run-tests: FAILED"
fi
echo "$passed passed, $failed failed"
exit "$status"
