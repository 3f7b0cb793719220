#!/bin/sh
# Runs the whole iolens test suite, as CI does (.ci/run calls only this):
#   1. a fresh build in _build-test and `make check` (unit, parser and
#      LD_PRELOAD integration tests);
#   2. a fresh build for Open MPI (configure --with-mpi=openmpi) in
#      _build-openmpi/build and `make check-openmpi`: the MPI, HDF5 and
#      Python MPI tests (OPENMPI_TESTS in Makefile.am) against that library.
#      It is built from the release tarball, unpacked read-only, and then
#      installed, uninstalled and distcleaned (scripts/tarball-check.sh):
#      what `make distcheck` checks, without a build of its own;
#   3. a fresh AddressSanitizer/UBSan build in _build-asan and
#      `make check-sanitize` (it builds only what the unit and parser
#      tests run, then runs them);
#   4. a fresh ThreadSanitizer build in _build-tsan and `make check-tsan`
#      (the threaded integration test, libtsan preloaded before the runtime,
#      and the streaming parser's test: it decodes on two threads);
#   5. scripts/check-dist.sh: the tarball holds every file git tracks.
#      (Where Open MPI is missing, `make distcheck` from _build-test checks
#      the tarball instead, running no test.)
# The builds of stages 2 to 4 run while step 1's tests run, at the idle
# scheduling class (chrt --idle; nice 19 where that is refused): they take
# only the CPU time the tests leave, so tests that time I/O still have the
# machine to themselves, and the run takes the CPUs' time rather than the
# sum of its parts.  Their output goes to a file per build, shown when one
# fails.  Stages 2 to 4 then run at the same time, each once its build is
# ready; one test lock for all builds (IOLENS_TEST_LOCK) still lets a test
# that times I/O run alone.
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
# One test lock for every build's tests (tests/integration/common.sh).
IOLENS_TEST_LOCK=$AHEAD_LOGS/test-lock
export IOLENS_TEST_LOCK

# ------------------------------------------------------------- make check --
# The other stages' builds, one after another, in the background (from
# the start: configure leaves a CPU idle).  A status an earlier run left
# must not pass for this run's before the build gets to its directory.
rm -f "$OMPI_BUILD/.ahead-status" "$ASAN_BUILD/.ahead-status" "$TSAN_BUILD/.ahead-status"
(
    if [ "$have_openmpi" -eq 1 ]; then
        ahead "$OMPI_BUILD" "$AHEAD_LOGS/openmpi.log" \
            sh -c '"$0/scripts/tarball-check.sh" build . --with-mpi=openmpi &&
                   make -C build -j2 build-openmpi' "$TOP"
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

# distcheck, where no Open MPI build checks the tarball, in the
# background while the next stages run.  It runs no test (TESTS=
# check_PROGRAMS=): all of them ran in step 1 from the same files.
DISTCHECK_LOG=$TEST_BUILD/distcheck.log
distcheck_pid=
if [ "$check_ok" -eq 1 ] && [ "$have_openmpi" -eq 0 ]; then
    (
        rc=0
        (cd "$TEST_BUILD" && idle make -j2 distcheck TESTS= check_PROGRAMS=) >"$DISTCHECK_LOG" 2>&1 || rc=$?
        echo "$rc" >"$TEST_BUILD/.distcheck-status"
    ) &
    distcheck_pid=$!
fi

# ------------------------------------------ Open MPI, ASan/UBSan, TSan --
# The three stages run at once, each as soon as its build is ready: alone,
# each would leave a CPU idle at its end (its longest test) or while its MPI
# jobs wait; together they keep both busy.  The tests that time I/O still
# run alone: the test lock is one for every build (IOLENS_TEST_LOCK).
# Each stage's output goes to a file, shown in order when all have ended.

# stage_in_background NAME DIR LOG COMMAND...: waits for the ahead build
# of DIR, then runs COMMAND; DIR/.stage-status gets 0, or 1 if the build
# failed, or the command's status.
stage_in_background() {
    name=$1 dir=$2 log=$3
    shift 3
    rm -f "$dir/.stage-status"
    (
        rc=0
        if ahead_ok "$dir" "$log" >"$AHEAD_LOGS/$name.out" 2>&1; then
            "$@" >>"$AHEAD_LOGS/$name.out" 2>&1 || rc=$?
        else
            rc=1
        fi
        echo "$rc $(date +%s)" >"$dir/.stage-status"
    ) &
}

# stage_result NAME DIR SUITE_LOG: shows the stage's output and adds its
# results to the totals.
stage_result() {
    name=$1 dir=$2 suite=$3
    step "make $name"
    cat "$AHEAD_LOGS/$name.out"
    set -- $(cat "$dir/.stage-status" 2>/dev/null || echo "1 $(date +%s)")
    count_results "$suite"
    seconds=$(($2 - stages_start))
    if [ "$1" -eq 0 ]; then
        recap="$recap$(printf '  %-16s %5ss  %s' "$name" "$seconds" "ok ($last_counts)")
"
    else
        stage_failed
        recap="$recap$(printf '  %-16s %5ss  %s' "$name" "$seconds" "FAILED ($last_counts)")
"
        show_log "$suite"
    fi
}

stages_start=$(date +%s)
step "Running check-openmpi, check-sanitize and check-tsan (their output follows when all have ended)"
if [ "$have_openmpi" -eq 1 ]; then
    stage_in_background check-openmpi "$OMPI_BUILD" "$AHEAD_LOGS/openmpi.log" \
        make -C "$OMPI_BUILD/build" -j4 check-openmpi
fi
stage_in_background check-sanitize "$ASAN_BUILD" "$AHEAD_LOGS/asan.log" \
    env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    make -C "$ASAN_BUILD" -j2 check-sanitize
stage_in_background check-tsan "$TSAN_BUILD" "$AHEAD_LOGS/tsan.log" \
    make -C "$TSAN_BUILD" -j2 check-tsan
wait_stages() {
    for dir in "$@"; do
        while [ ! -f "$dir/.stage-status" ]; do
            sleep 2
        done
    done
}
if [ "$have_openmpi" -eq 1 ]; then
    wait_stages "$OMPI_BUILD" "$ASAN_BUILD" "$TSAN_BUILD"
    stage_result check-openmpi "$OMPI_BUILD" "$OMPI_BUILD/build/test-suite.log"
else
    wait_stages "$ASAN_BUILD" "$TSAN_BUILD"
    note "check-openmpi" "skipped: this configure has no --with-mpi=openmpi"
fi
stage_result check-sanitize "$ASAN_BUILD" "$ASAN_BUILD/test-suite.log"
stage_result check-tsan "$TSAN_BUILD" "$TSAN_BUILD/test-suite.log"
stage_start=$(date +%s)
wait "$ahead_pid" || true

# ---------------------------------------------------------------- tarball --
if [ "$have_openmpi" -eq 1 ]; then
    step "The tarball: install, uninstall and distclean in $OMPI_BUILD/build"
    if [ -f "$OMPI_BUILD/build/Makefile" ] &&
        ./scripts/tarball-check.sh install "$OMPI_BUILD" >"$AHEAD_LOGS/tarball.log" 2>&1 &&
        ./scripts/check-dist.sh "$OMPI_BUILD"/dist/iolens-*.tar.gz; then
        tail -n 1 "$AHEAD_LOGS/tarball.log"
        note "tarball" "ok"
    else
        last_failures=0
        stage_failed
        note "tarball" "FAILED (see $AHEAD_LOGS/tarball.log)"
        tail -n 60 "$AHEAD_LOGS/tarball.log"
    fi
elif [ -n "$distcheck_pid" ]; then
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
