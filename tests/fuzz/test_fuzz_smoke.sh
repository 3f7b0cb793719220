#!/bin/sh
# A short coverage-guided fuzzing run (libFuzzer, ASan, UBSan) of the log
# reader: 20000 executions or 20 seconds, whichever comes first, from the
# seed corpus (tests/fuzz/run-fuzz.sh, which bench-scale runs use with
# 10^6 executions).  Passes if libFuzzer finds nothing; skipped (77) where
# clang cannot build a fuzzer (CI installs it: scripts/install-deps.sh).
. "$(dirname "$0")/../integration/common.sh"

for var in IOLENS_BUILDDIR IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
# The fuzzer's own sanitizers; a sanitized build's settings do not apply.
unset ASAN_OPTIONS UBSAN_OPTIONS
out=$(sh "$IOLENS_SRCDIR/tests/fuzz/run-fuzz.sh" -runs=20000 -max_total_time=20 \
    "$IOLENS_BUILDDIR" 2>&1)
status=$?
echo "$out" | tail -n 30
[ "$status" -eq 77 ] && exit 77
check_eq 0 "$status" "exit status of run-fuzz.sh (a crash, leak or timeout in the reader)"
runs=$(echo "$out" | sed -n 's/^fuzz: \([0-9]*\) runs in .*/\1/p')
# 20000 unless the 20 s ran out first on a slow machine; never a handful.
check_gt "${runs:-0}" 999 "executions of the fuzz target"
check_le "${runs:-0}" 20000 "executions of the fuzz target"
# The custom mutator gets past the CRCs: the corpus must grow.
corpus=$(echo "$out" | sed -n 's/^fuzz: .*, corpus \([0-9]*\) inputs.*/\1/p')
check_gt "${corpus:-0}" 20 "inputs the fuzzer added to the corpus"
finish
