#!/bin/sh
# Coverage-guided fuzzing of the log reader with libFuzzer (Debian's clang
# and libclang-rt-*-dev), under AddressSanitizer and UBSan:
#
#   tests/fuzz/run-fuzz.sh [-runs=N] [-max_total_time=S] BUILDDIR [WORKDIR]
#
# Defaults: -runs=1000000.  BUILDDIR is a configured build tree (for
# build_config.h and make_test_log); WORKDIR (default: a new directory
# under /tmp, removed at the end unless something crashed) receives the
# binary, the evolving corpus and any crasher (crash-*, leak-*, oom-*,
# timeout-*).
#
# The seed corpus is tests/fuzz/corpus plus logs made here: make_test_log
# in each of its variants (intervals, forked, HDF5, one node) and, when the
# runtime is built, a real traced run of a small program.  A crasher found
# is to be fixed in the reader and then added to tests/fuzz/corpus (and to
# test_fuzz_corpus.sh's expected counts).
#
# Prints "fuzz: N runs in S s (R exec/s), corpus C inputs" and exits 0, or
# 1 if libFuzzer found a problem, or 77 if clang cannot build a fuzzer.
set -eu

runs=1000000
time_limit=0
while :; do
    case ${1:-} in
    -runs=*) runs=${1#-runs=}; shift ;;
    -max_total_time=*) time_limit=${1#-max_total_time=}; shift ;;
    *) break ;;
    esac
done
build=$(cd "${1:?usage: run-fuzz.sh [-runs=N] [-max_total_time=S] BUILDDIR [WORKDIR]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
keep=0
if [ -n "${2:-}" ]; then
    work=$2
    mkdir -p "$work"
    keep=1
else
    work=$(mktemp -d /tmp/iolens-fuzz.XXXXXX)
fi
cleanup() { [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT

CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "SKIP: $CLANG is not installed (scripts/install-deps.sh installs it)"
    exit 77
fi

# --------------------------------------------------------------- build --
bin=$work/fuzz_reader_libfuzzer
if ! "$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -include "$build/build_config.h" -I"$src/include" -I"$src" -I"$src/lib" -I"$src/util" \
    -o "$bin" "$src/tests/fuzz/fuzz_reader.c" "$src/tests/fuzz/fuzz_mutator.c" \
    "$src"/util/reader/*.c "$src"/format/*.c \
    -lz -lbz2 -pthread 2>"$work/build.err"; then
    cat "$work/build.err" >&2
    if grep -q -e 'fuzzer' "$work/build.err"; then
        echo "SKIP: $CLANG cannot link libFuzzer (libclang-rt-*-dev missing?)"
        exit 77
    fi
    echo "fuzz: the fuzz target does not build" >&2
    exit 1
fi

# ---------------------------------------------------------- seed corpus --
seeds=$work/seeds
corpus=$work/corpus
mkdir -p "$seeds" "$corpus"
cp "$src"/tests/fuzz/corpus/* "$seeds/"
make_log=$build/tests/integration/make_test_log
if [ -x "$make_log" ]; then
    for variant in "" --forked --stdio-twin --hdf5 --intervals "--intervals --intervals-extra" \
        "--intervals --one-node"; do
        name=$(echo "made$variant" | tr -d ' ' | sed 's/--/-/g')
        # shellcheck disable=SC2086  # the variant's options are split on purpose
        IOLENS_DISABLE=1 "$make_log" $variant "$seeds/$name.iolens" >/dev/null
    done
fi
lib=$build/.libs/libiolens.so
if [ -r "$lib" ] && [ -x "$build/tests/integration/prog_writes" ]; then
    env IOLENS_NONMPI=1 IOLENS_LOGFILE="$seeds/traced.iolens" LD_PRELOAD="$lib" \
        "$build/tests/integration/prog_writes" "$work/data" >/dev/null 2>&1 || true
    rm -f "$work/data"
fi
chmod u+rw "$seeds"/*

# ----------------------------------------------------------------- run --
# -rss_limit_mb: the reader caps a region at 1 GiB raw; 2.5 GiB leaves
# room for ASan's shadow.  -timeout: any single input taking 10 s is a bug.
set +e
t0=$(date +%s.%N)
"$bin" -runs="$runs" -max_total_time="$time_limit" -rss_limit_mb=2560 -timeout=10 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/" \
    "$corpus" "$seeds" >"$work/fuzz.out" 2>&1
status=$?
t1=$(date +%s.%N)
set -e
if [ "$status" -ne 0 ]; then
    keep=1
    tail -n 60 "$work/fuzz.out" >&2
    echo "fuzz: libFuzzer found a problem (status $status); artifacts in $work:" >&2
    ls "$work" | grep -E '^(crash|leak|oom|timeout|slow-unit)-' >&2 || true
    exit 1
fi
done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$work/fuzz.out" | tail -n 1)
n=$(echo "$done_line" | sed 's/^Done \([0-9]*\) runs in.*/\1/')
s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
rate=$(awk -v n="$n" -v s="$s" 'BEGIN { printf "%.0f", (s > 0) ? n / s : n }')
echo "fuzz: $n runs in $s s ($rate exec/s), corpus $(ls "$corpus" | wc -l) inputs" \
    "(seeds $(ls "$seeds" | wc -l))"
grep -E '^(#[0-9]+ +DONE|stat::)' "$work/fuzz.out" || true
