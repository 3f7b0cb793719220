#!/bin/sh
# The bench's summary logic (bench/summary.sh) on crafted figures: a
# negative added cost or a traced/untraced ratio below 1 is "noise, not
# measured", a missing or non-numeric figure is "no figure", and only a
# real figure within its target is "yes".  The verdicts, medians and
# spreads are checked exactly, the full table line included.  Needs only
# the source tree (make check sets IOLENS_SRCDIR).
set -u
SRC=${IOLENS_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/bench/summary.sh"

checks=0
failures=0
check_eq() {
    checks=$((checks + 1))
    if [ "$1" != "$2" ]; then
        echo "FAIL: $3: expected '$1', got '$2'"
        failures=$((failures + 1))
    fi
}

W=$(mktemp -d "${TMPDIR:-/tmp}/iolens-test-summary.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM

# summary_verdict VALUE TARGET FLOOR, one case a line.
verdict_is() {
    check_eq "$4" "$(summary_verdict "$1" "$2" "$3")" "verdict of '$1' against '$2', floor '$3'"
}
# The bench's two old mistakes: the shared-file threads ratio from a
# negative difference, and the 4 KiB ratio below 1 from two processes.
verdict_is -1.92 "<= 2" 0 "noise, not measured"
verdict_is 0.847 "<= 1.05" 1 "noise, not measured"
# A negative added cost, with or without a target.
verdict_is -3.5 "<= 25" 0 "noise, not measured"
verdict_is -0.1 - 0 "noise, not measured"
verdict_is -0.1 - - "-"
# A figure a script marked as noise (most of its pairs had no base).
verdict_is noise "<= 2" 0 "noise, not measured"
verdict_is noise - - "noise, not measured"
# Missing, empty, non-numeric: never met, whatever the target.
verdict_is "" "<= 25" 0 "no figure"
verdict_is - "<= 25" 0 "no figure"
verdict_is - - - "no figure"
verdict_is abc "<= 25" 0 "no figure"
verdict_is nan "<= 25" 0 "no figure"
verdict_is inf ">= 2" - "no figure"
verdict_is 12x "<= 25" 0 "no figure"
verdict_is "1 2" "<= 25" 0 "no figure"
verdict_is "no log" ">= 4000" 0 "no figure"
# Real figures against their targets.
verdict_is 18.4 "<= 25" 0 "yes"
verdict_is 25 "<= 25" 0 "yes"
verdict_is 25.1 "<= 25" 0 "NO"
verdict_is 1.000 "<= 1.05" 1 "yes"
verdict_is 1.061 "<= 1.05" 1 "NO"
verdict_is 0 "<= 25" 0 "yes"
verdict_is 4100 ">= 4000" 0 "yes"
verdict_is 1040 ">= 4000" 0 "NO"
verdict_is 2.1e6 ">= 2e6" 0 "yes"
verdict_is 1.75e+06 ">= 2e6" 0 "NO"
verdict_is 0.85 "<= 2" 0 "yes"
verdict_is 7.5 - 0 "-"
# A target the logic cannot read is not met either.
verdict_is 3 "< 5" - "bad target"
verdict_is 3 "<= x" - "bad target"

# summary_stats FORMAT: median and MIN..MAX, noise pairs left out.
stats_is() {
    check_eq "$3" "$(printf '%b' "$2" | summary_stats "$1")" "summary_stats of '$2'"
}
stats_is %.1f '3\n1\n2\n' "2.0 1.0..3.0"
stats_is %.1f '4\n1\n2\n3\n' "2.5 1.0..4.0"
stats_is %.3f '-2\n5\n-7\n' "-2.000 -7.000..5.000"
stats_is %.0f '1.5e6\n2.5e6\n2e6\n' "2000000 1500000..2500000"
stats_is %.2f '0.9\nnoise\n1.1\n1.0\n' "1.00 0.90..1.10"
stats_is %.2f '0.9\nnoise\nnoise\n' "noise 0.90..0.90"
stats_is %.2f '0.9\nnoise\n' "noise 0.90..0.90"
stats_is %.2f 'noise\n' "noise -"
stats_is %.1f '' "- -"
stats_is %.1f '\n-\nx\n' "- -"

# The table: rows written by summary_row, printed with their verdicts.
IOLENS_BENCH_SUMMARY=$W/summary
: >"$IOLENS_BENCH_SUMMARY"
summary_row "pwrite4k: traced/untraced (in process)" 0.847 ratio "<= 1.05" 0.801..1.120 1
summary_row "threads, one shared file: 2 against 1" -1.92 ratio "<= 2" -4.00..3.10 0
summary_row "pwrite1: ns added (in process)" 18.4 ns "<= 25" 16.0..21.5 0
summary_row "files kept apart in the default budget" "" files ">= 4000"
summary_row "stat: ns added" 139 ns - 120..150 0
summary_print "$IOLENS_BENCH_SUMMARY" >"$W/table"
check_eq 6 "$(wc -l <"$W/table" | tr -d ' ')" "lines of the table (header and 5 rows)"
check_eq "$(printf '%-66s %12s %-21s %-12s %-12s %s' item measured spread unit target met)" \
    "$(sed -n 1p "$W/table")" "table header"
check_eq "$(printf '%-66s %12s %-21s %-12s %-12s %s' "pwrite4k: traced/untraced (in process)" \
    0.847 0.801..1.120 ratio "<= 1.05" "noise, not measured")" \
    "$(sed -n 2p "$W/table")" "row of a ratio below 1"
check_eq "$(printf '%-66s %12s %-21s %-12s %-12s %s' "threads, one shared file: 2 against 1" \
    -1.92 -4.00..3.10 ratio "<= 2" "noise, not measured")" \
    "$(sed -n 3p "$W/table")" "row of a negative ratio"
check_eq "$(printf '%-66s %12s %-21s %-12s %-12s %s' "pwrite1: ns added (in process)" \
    18.4 16.0..21.5 ns "<= 25" yes)" "$(sed -n 4p "$W/table")" "row of a good figure"
check_eq "$(printf '%-66s %12s %-21s %-12s %-12s %s' "files kept apart in the default budget" \
    - - files ">= 4000" "no figure")" "$(sed -n 5p "$W/table")" "row of a missing figure"
check_eq "$(printf '%-66s %12s %-21s %-12s %-12s %s' "stat: ns added" 139 120..150 ns - -)" \
    "$(sed -n 6p "$W/table")" "row without a target"

# Without IOLENS_BENCH_SUMMARY (a script run alone) a row goes nowhere.
unset IOLENS_BENCH_SUMMARY
(cd "$W" && summary_row x 1 ns "<= 2") >"$W/out" 2>&1
check_eq "" "$(cat "$W/out")" "summary_row without IOLENS_BENCH_SUMMARY"

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
