#!/bin/sh
# The structure-aware fuzzer over every parser mode and every tool that
# reads logs, so that no log the reader accepts can crash one: fuzz_reader
# derives mutations of the seed corpus
# (tests/fuzz/corpus, the regression seeds included, and make_test_log's
# variants), keeps those the reader accepts (--save), and every mode of
# iolens-parser, iolens-report, iolens-export (--item-extract, --sqlite),
# iolens-diff and iolens-anonymize runs on each.  Any crash, sanitizer
# report (the ASan/UBSan build of make check-sanitize stops at the first
# UBSan finding: -fno-sanitize-recover=undefined) or run over 20 s fails.
# FUZZ_TOOLS_MUTATIONS (default 150: some 25 accepted, 40 logs, 700 runs,
# under a minute of CPU) and FUZZ_TOOLS_SEED set the run;
# make fuzz runs a longer one.
. "$(dirname "$0")/../integration/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN IOLENS_SRCDIR IOLENS_BUILDDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
command -v timeout >/dev/null || { echo "SKIP: timeout is not installed"; exit 77; }
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL
B=$IOLENS_BUILDDIR
mutations=${FUZZ_TOOLS_MUTATIONS:-150}
seed=${FUZZ_TOOLS_SEED:-20261125}
# A sanitizer's finding gets a status of its own (ASan and UBSan exit 1
# by default, which is also a tool's usage error).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99:halt_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS
# A mutation of big-regions.iolens may claim less and still be read: a
# 64 MiB limit keeps each such input to a fraction of a second.
IOLENS_MAX_LOG_SIZE=64M
export IOLENS_MAX_LOG_SIZE

mkdir "$T/seeds" "$T/mutants"
cp "$IOLENS_SRCDIR"/tests/fuzz/corpus/*.iolens "$T/seeds/"
for variant in "" --forked --hdf5 --intervals "--intervals --intervals-extra" --odd-names; do
    name=$(echo "made$variant" | tr -d ' ' | sed 's/--/-/g')
    # shellcheck disable=SC2086  # the variant's options are split on purpose
    IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" $variant "$T/seeds/$name.iolens" ||
        fail "make_test_log $variant"
done
chmod u+rw "$T/seeds"/*
summary=$("$IOLENS_TESTBIN/fuzz/fuzz_reader" --mutations "$mutations" --seed "$seed" \
    --save "$T/mutants" "$T/seeds") || fail "fuzz_reader crashed (status $?)"
echo "fuzz_reader: $summary"
nmutants=$(ls "$T/mutants" | wc -l)
check_gt "$nmutants" 10 "accepted mutations to run the tools on"
head -c 32 /dev/urandom >"$T/key"
good=$T/seeds/made-intervals.iolens
sqlite=0
"$B/iolens-export" --help | grep -q -e --sqlite && sqlite=1

runs=0
# Runs a tool on a log; any status but 0-3 (a signal, a sanitizer's 99,
# timeout's 124 and 137) or a sanitizer report fails.
run() {
    label=$1
    shift
    runs=$((runs + 1))
    timeout -s KILL 20 "$@" >/dev/null 2>"$T/err"
    status=$?
    if [ "$status" -gt 3 ] || grep -q -e 'runtime error:' -e 'ERROR: AddressSanitizer' \
        -e 'ERROR: LeakSanitizer' "$T/err"; then
        fail "$label: status $status"
        head -n 20 "$T/err"
        cp "$log" "$IOLENS_BUILDDIR/fuzz-failure-$runs.iolens" 2>/dev/null &&
            echo "  input kept as $IOLENS_BUILDDIR/fuzz-failure-$runs.iolens"
    else
        pass
    fi
}

modes="--base --total --file --stack --perf --patterns --csv --bps --json --timeseries
       --summary --advice"
for log in "$T"/seeds/*.iolens "$T"/mutants/*.iolens; do
    name=$(basename "$log")
    for mode in $modes; do
        run "iolens-parser $mode $name" "$IOLENS_PARSER" $mode "$log"
    done
    run "iolens-report $name" "$B/iolens-report" "$log" -o "$T/out.html"
    run "iolens-export --item-extract $name" "$B/iolens-export" --item-extract --series=POSIX \
        --data=bytes_read_write -o "$T/out.csv" "$log"
    if [ "$sqlite" = 1 ]; then
        rm -f "$T/out.db"
        run "iolens-export --sqlite $name" "$B/iolens-export" --sqlite "$T/out.db" "$log"
    fi
    run "iolens-diff $name" "$B/iolens-diff" "$good" "$log"
    run "iolens-anonymize $name" "$B/iolens-anonymize" --key-file "$T/key" "$log" "$T/anon.iolens"
done
echo "fuzz_tools: $runs runs on $(ls "$T/seeds" | wc -l) seeds and $nmutants accepted mutations"
finish
