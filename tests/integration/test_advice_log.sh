#!/bin/sh
# iolens-parser --advice and iolens-diff on the make_test_log fixture, with
# no tracing (so it runs under the sanitizers too): the exact findings,
# priorities and evidence, and each threshold tried on both sides of the
# fixture's figure.
. "$(dirname "$0")/common.sh"
iolens_setup
MAKE_LOG=$IOLENS_TESTBIN/integration/make_test_log
"$MAKE_LOG" "$T/t.iolens" || { fail "make_test_log"; finish; }

# "CODE PRIORITY ..." of the findings, on one line.
found() {
    "$IOLENS_PARSER" --advice "$@" "$T/t.iolens" >"$T/out" 2>"$T/err" ||
        fail "iolens-parser --advice $*: $(cat "$T/err")"
    awk '$1 == "FINDING" { printf "%s%s %s", sep, $2, $3; sep = " " } END { print "" }' "$T/out"
}

# Default thresholds: rank 0 moved 99.7% (0.9: 90 + 0), 1013 of 1013
# accesses are 4 KiB or less (share 1 against 0.5: 75 + 9), one shared
# file's ranks took 0.625 s and 0 s (70 + 9), 999 of 1013 misaligned on
# the 1 MiB Lustre stripe (0.986 against 0.5: 30 + 8).
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(found)" "default findings"
check_eq "evidence: rank 0 moved 99.7% of the 4099282 bytes at the POSIX layer; the job has 4 ranks" \
    "$(sed -n '/^FINDING RANK0_BOTTLENECK/{n;p;}' "$T/out")" "rank-0 evidence"
check_eq "evidence: 1013 of 1013 POSIX reads and writes (100.0%) were of at most 102400 bytes, in 2 files; most in /scratch/run/out.dat (1000, most common size 4096 bytes)" \
    "$(sed -n '/^FINDING SMALL_ACCESSES/{n;p;}' "$T/out")" "small evidence"
check_eq "evidence: slowest rank 1 spent 0.625000 s in POSIX I/O, fastest rank 2 0.000000 s (the fastest had no measurable I/O time) on /home dir/in put.dat" \
    "$(sed -n '/^FINDING RANK_IMBALANCE/{n;p;}' "$T/out")" "imbalance evidence"
check_eq "evidence: 999 of 1013 POSIX reads and writes (98.6%) started at a file offset that is not a multiple of the file alignment, in 1 files; most in /scratch/run/out.dat (999, alignment 1048576 bytes)" \
    "$(sed -n '/^FINDING MISALIGNED_ACCESSES/{n;p;}' "$T/out")" "misaligned evidence"
check_eq "# advice findings: 4" "$(grep '^# advice findings' "$T/out")" "count line"
check_eq 4 "$(grep -c '^fix: ' "$T/out")" "one fix per finding"

# Each threshold just beyond and just at the fixture's figure.
check_eq "SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds rank0_share=0.998)" "rank0_share=0.998"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds rank0_share=0.997)" "rank0_share=0.997"
check_eq "RANK0_BOTTLENECK 90 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds small_size=10239)" "small_size=10239 (4 KiB is in the 1-10 KiB bin)"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds small_size=10240)" "small_size=10240"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds imbalance_min_time=0.626)" "imbalance_min_time=0.626"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds imbalance_min_time=0.625)" "imbalance_min_time=0.625"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79" \
    "$(found --advice-thresholds misaligned_share=0.99)" "misaligned_share=0.99"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 30" \
    "$(found --advice-thresholds misaligned_share=0.98)" "misaligned_share=0.98 (priority 30 + 0)"
check_eq "RANK0_BOTTLENECK 90 RANK_IMBALANCE 79" \
    "$(found --advice-thresholds min_ops=1014)" "min_ops=1014"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds min_ops=1013)" "min_ops=1013"
check_eq "SMALL_ACCESSES 84 MISALIGNED_ACCESSES 38" \
    "$(found --advice-thresholds min_bytes=4099283 --advice-thresholds imbalance_ratio=1e10)" \
    "min_bytes above the job's bytes, an unreachable ratio, the option twice"
# Later keys win; the thresholds line shows what was applied.
found --advice-thresholds min_ops=5,min_ops=7 >/dev/null
grep -q '^# advice thresholds: small_size=102400,small_share=0.5,min_ops=7,' "$T/out" ||
    fail "thresholds line: $(grep thresholds "$T/out")"

# --json carries the same, in the same order.
"$IOLENS_PARSER" --json "$T/t.iolens" >"$T/j" || fail "--json"
check_eq "RANK0_BOTTLENECK 90 SMALL_ACCESSES 84 RANK_IMBALANCE 79 MISALIGNED_ACCESSES 38" \
    "$(python3 -c '
import json, sys
print(" ".join("%s %d" % (f["code"], f["priority"]) for f in json.load(open(sys.argv[1]))["advice"]))
' "$T/j")" "--json advice"

# iolens-diff of the fixture with itself: status 0, no change line.
DIFF=$(dirname "$IOLENS_PARSER")/iolens-diff
"$DIFF" --fail-if-slower 0 "$T/t.iolens" "$T/t.iolens" >"$T/d" 2>"$T/err"
check_eq 0 "$?" "iolens-diff t t"
check_eq "" "$(cat "$T/err")" "iolens-diff t t: stderr"
check_eq "sharing	job	rank-0	rank-0" "$(grep -v '^#' "$T/d" | awk -F'\t' 'NF != 6')" \
    "iolens-diff t t: change lines"

finish
